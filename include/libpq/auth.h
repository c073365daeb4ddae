/*
 * auth.h: client authentication: the exchange with the client (trust, cleartext
 * password, md5, SCRAM-SHA-256), role passwords, and password verifiers.
 *
 * Roles and their passwords are in the roles' registry (catalog/authid.h), set by
 * CREATE ROLE and ALTER ROLE (tcop/user.h); a password is kept as a verifier
 * in PostgreSQL's pg_authid.rolpassword format:
 * "SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>" (base64) or "md5"
 * followed by md5(password || user) in hex. As in PostgreSQL, md5 in the rules runs
 * SCRAM for a role with a SCRAM verifier, and a role without a usable verifier (none,
 * no such role, or past its VALID UNTIL) still gets a full (mock) exchange that fails
 * as a wrong password does, so a client cannot tell which roles exist. Once the
 * method succeeded (trust included) a role that does not exist, or may not log in,
 * is FATAL 28000, as PostgreSQL's InitializeSessionUserId.
 */
#ifndef RL_AUTH_H
#define RL_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libpq/hba.h"

#define SCRAM_DEFAULT_ITERATIONS	4096
#define SCRAM_SALT_LEN				16
#define SCRAM_RAW_NONCE_LEN			18
#define SCRAM_KEY_LEN				32
#define MD5_PASSWD_LEN				35	/* "md5" + 32 hex digits */

/*
 * What authentication needs to know of the role the client names. The caller (tcop)
 * reads it from the roles' registry in the catalog, which is a layer above this one.
 */
typedef struct AuthRole
{
	bool		found;			/* the role exists */
	bool		canlogin;		/* LOGIN */
	const char *verifier;		/* its password's verifier; NULL if none */
	bool		expired;		/* its VALID UNTIL has passed */
} AuthRole;

/*
 * Authenticate the connection's user for database as the rules say, exchanging
 * AuthenticationRequest / PasswordMessage with the client; sends
 * AuthenticationOk on success, FATAL 28000 / 28P01 / 08P01 otherwise, and then, as
 * PostgreSQL's InitializeSessionUserId, FATAL 28000 for a role that does not exist
 * or may not log in.
 */
void		ClientAuthentication(const char *data_directory, const char *user,
								 const char *database, const AuthRole *role);

/* A verifier for password ("scram-sha-256" or "md5"); palloc'd, NULL for an unknown method. */
char	   *make_password_verifier(const char *method, const char *user, const char *password);
char	   *scram_build_verifier(const char *password, const uint8_t *salt, size_t saltlen,
								 int iterations);
char	   *md5_build_verifier(const char *user, const char *password);
/*
 * Whether a password given to CREATE or ALTER ROLE is a verifier already (md5 or
 * SCRAM-SHA-256), which PostgreSQL stores as it is.
 */
bool		password_is_verifier(const char *password);
/* Check a cleartext password against a verifier of either kind. */
bool		verify_plain_password(const char *user, const char *verifier, const char *password);

/*
 * Do once in the postmaster what OpenSSL does on its first use (load providers,
 * seed the generator), so pre-forked backends inherit it instead of paying for it
 * in every connection's authentication.
 */
void		auth_prepare_crypto(void);
/* The md5 client response for salt: "md5" + md5hex(md5hex(password||user) || salt). */
bool		md5_check_response(const char *verifier, const uint8_t salt[4], const char *response);

/* The server side of a SCRAM-SHA-256 exchange, one message at a time. */
typedef enum ScramResult
{
	SCRAM_CONTINUE,
	SCRAM_SUCCESS,
	SCRAM_FAILURE
} ScramResult;

typedef struct ScramState ScramState;

/*
 * Begin an exchange for user against verifier (NULL: a mock exchange that always
 * fails). server_nonce NULL draws a random one (tests pass a fixed one).
 */
ScramState *scram_begin(const char *user, const char *verifier, const char *server_nonce);
/*
 * Feed the client's message; *output (palloc'd, *outlen bytes) is the server's
 * next message. Malformed input is FATAL 08P01 "malformed SCRAM message".
 */
ScramResult scram_exchange(ScramState *state, const char *input, size_t inputlen,
						   char **output, size_t *outlen);

#endif
