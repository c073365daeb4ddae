// smoke.js: a node-postgres (npm pg, pinned in package.json) session against a
// PostgreSQL-compatible server, for the driver smoke test (test/scripts/drivers.sh)
// and the differential test (test/differential/). It runs a parameterised query
// (unnamed statement), a named prepared statement several times, and checks an
// error's SQLSTATE; it prints what it read and exits non-zero on any mismatch.
//
// usage: node smoke.js HOST PORT USER
'use strict';
const assert = require('assert');
const { Client } = require('pg');

async function main() {
  const [host, port, user] = process.argv.slice(2);
  const client = new Client({ host, port: Number(port), user, database: 'postgres' });
  await client.connect();
  const r = await client.query('select $1::int + 1 as n, $2::text as t', [41, 'hi']);
  assert.deepStrictEqual(r.rows, [{ n: 42, t: 'hi' }]);
  console.log(r.rows[0].n, r.rows[0].t);
  for (let i = 0; i < 3; i++) {
    const p = await client.query({ name: 'double', text: 'select $1::int8 * 2 as d', values: [i] });
    assert.strictEqual(p.rows[0].d, String(i * 2));
    console.log('double', p.rows[0].d);
  }
  await assert.rejects(client.query('selec 1'), (e) => e.code === '42601');
  console.log('error 42601');
  await client.end();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
