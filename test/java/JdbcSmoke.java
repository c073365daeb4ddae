/*
 * JdbcSmoke: a pgjdbc session against a PostgreSQL-compatible server, for the driver
 * smoke test (test/scripts/drivers.sh) and the differential test (test/differential/).
 * It runs a parameterised PreparedStatement more than prepareThreshold (5) times, so
 * pgjdbc switches to a named server-side statement with binary int results, reads a
 * result with a fetch size (a named portal resumed after PortalSuspended), and checks
 * an error's SQLSTATE. It prints what it read; any mismatch exits non-zero.
 *
 * usage: java -cp postgresql.jar:DIR JdbcSmoke HOST PORT USER
 */
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

public class JdbcSmoke
{
	private static void check(boolean ok, String what)
	{
		if (!ok)
			throw new AssertionError(what);
	}

	public static void main(String[] args) throws SQLException
	{
		String url = "jdbc:postgresql://" + args[0] + ":" + args[1] + "/postgres?sslmode=disable";

		try (Connection conn = DriverManager.getConnection(url, args[2], ""))
		{
			check(conn.getMetaData().getDatabaseMajorVersion() == 15, "server major version");
			try (PreparedStatement ps = conn.prepareStatement("select ?::int + 1, ?::text"))
			{
				for (int i = 0; i < 8; i++)
				{
					ps.setInt(1, i);
					ps.setString(2, "hi");
					try (ResultSet rs = ps.executeQuery())
					{
						check(rs.next(), "a row");
						check(rs.getInt(1) == i + 1 && rs.getString(2).equals("hi"), "row " + i);
						System.out.println(rs.getInt(1) + " " + rs.getString(2));
						check(!rs.next(), "one row");
					}
				}
			}
			conn.setAutoCommit(false);
			try (PreparedStatement ps = conn.prepareStatement("select generate_series(1, ?)"))
			{
				int		n = 0;

				ps.setFetchSize(2);
				ps.setInt(1, 5);
				try (ResultSet rs = ps.executeQuery())
				{
					while (rs.next())
						check(rs.getInt(1) == ++n, "series value " + n);
				}
				check(n == 5, "five rows");
				System.out.println("fetched " + n + " rows two at a time");
			}
			conn.commit();
			conn.setAutoCommit(true);
			try (Statement st = conn.createStatement())
			{
				st.executeQuery("selec 1");
				check(false, "no error");
			}
			catch (SQLException e)
			{
				check("42601".equals(e.getSQLState()), "SQLSTATE " + e.getSQLState());
				System.out.println("error " + e.getSQLState());
			}
		}
	}
}
