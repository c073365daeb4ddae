/*
 * auth.c: client authentication (auth.h): the rules decide the method, this file
 * runs it. The SCRAM-SHA-256 server follows RFC 5802/7677 the way PostgreSQL's
 * auth-scram.c does: mechanism list "SCRAM-SHA-256" only (no channel binding is
 * offered, so the client's GS2 header is "n,," or "y,,"), the user name inside
 * the SCRAM message is ignored in favour of the startup packet's, a 18-byte
 * random server nonce, and verifiers in pg_authid's format, so secrets made by
 * PostgreSQL work here and the other way round. All cryptography is OpenSSL's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include "common/ulid.h"
#include "libpq/auth.h"
#include "libpq/pqcomm.h"
#include "utils/elog.h"
#include "utils/mcxt.h"

#define SCRAM_PREFIX "SCRAM-SHA-256$"

/* ---------- encodings and primitives ---------- */

static char *
b64_encode(const uint8_t *data, size_t len)
{
	char	   *out = palloc(4 * ((len + 2) / 3) + 1);

	EVP_EncodeBlock((unsigned char *) out, data, (int) len);
	return out;
}

/* b64_decode -- strict base64 (padding required); false on anything else */
static bool
b64_decode(const char *s, size_t slen, uint8_t **out, size_t *outlen)
{
	if (slen == 0 || slen % 4 != 0)
		return false;
	*out = palloc(slen / 4 * 3 + 1);
	int			n = EVP_DecodeBlock(*out, (const unsigned char *) s, (int) slen);

	if (n < 0)
		return false;
	size_t		pad = (s[slen - 1] == '=') + (s[slen - 2] == '=');

	*outlen = (size_t) n - pad;
	return true;
}

static void
hmac_sha256(const uint8_t *key, size_t keylen, const void *data, size_t len, uint8_t *out)
{
	unsigned int outlen = SCRAM_KEY_LEN;

	HMAC(EVP_sha256(), key, (int) keylen, data, len, out, &outlen);
}

static void
sha256(const uint8_t *data, size_t len, uint8_t *out)
{
	EVP_Digest(data, len, out, NULL, EVP_sha256(), NULL);
}

static void
md5_hex(const void *data, size_t len, char *hex)
{
	uint8_t		digest[16];

	EVP_Digest(data, len, digest, NULL, EVP_md5(), NULL);
	for (int i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

static void
random_bytes(uint8_t *buf, size_t len)
{
	if (RAND_bytes(buf, (int) len) != 1)
		ereport(FATAL,
				errcode(ERRCODE_INTERNAL_ERROR),
				errmsg("could not generate random bytes"));
}

/* ---------- verifiers ---------- */

/* scram_keys -- SaltedPassword, then StoredKey = H(HMAC(SP,"Client Key")), ServerKey */
static void
scram_keys(const char *password, const uint8_t *salt, size_t saltlen, int iterations,
		   uint8_t *stored_key, uint8_t *server_key)
{
	uint8_t		salted[SCRAM_KEY_LEN],
				client_key[SCRAM_KEY_LEN];

	PKCS5_PBKDF2_HMAC(password, (int) strlen(password), salt, (int) saltlen, iterations,
					  EVP_sha256(), SCRAM_KEY_LEN, salted);
	hmac_sha256(salted, SCRAM_KEY_LEN, "Client Key", 10, client_key);
	sha256(client_key, SCRAM_KEY_LEN, stored_key);
	hmac_sha256(salted, SCRAM_KEY_LEN, "Server Key", 10, server_key);
}

char *
scram_build_verifier(const char *password, const uint8_t *salt, size_t saltlen, int iterations)
{
	uint8_t		stored_key[SCRAM_KEY_LEN],
				server_key[SCRAM_KEY_LEN];

	scram_keys(password, salt, saltlen, iterations, stored_key, server_key);
	return psprintf(SCRAM_PREFIX "%d:%s$%s:%s", iterations, b64_encode(salt, saltlen),
					b64_encode(stored_key, SCRAM_KEY_LEN), b64_encode(server_key, SCRAM_KEY_LEN));
}

char *
md5_build_verifier(const char *user, const char *password)
{
	char	   *input = psprintf("%s%s", password, user);
	char	   *out = palloc(MD5_PASSWD_LEN + 1);

	memcpy(out, "md5", 3);
	md5_hex(input, strlen(input), out + 3);
	return out;
}

char *
make_password_verifier(const char *method, const char *user, const char *password)
{
	if (strcmp(method, "scram-sha-256") == 0)
	{
		uint8_t		salt[SCRAM_SALT_LEN];

		random_bytes(salt, sizeof(salt));
		return scram_build_verifier(password, salt, sizeof(salt), SCRAM_DEFAULT_ITERATIONS);
	}
	if (strcmp(method, "md5") == 0)
		return md5_build_verifier(user, password);
	return NULL;
}

/* A parsed SCRAM verifier */
typedef struct ScramSecret
{
	int			iterations;
	char	   *salt_b64;
	uint8_t    *salt;
	size_t		saltlen;
	uint8_t		stored_key[SCRAM_KEY_LEN];
	uint8_t		server_key[SCRAM_KEY_LEN];
} ScramSecret;

/* parse_scram_secret -- split "SCRAM-SHA-256$<iter>:<salt>$<stored>:<server>" */
static bool
parse_scram_secret(const char *verifier, ScramSecret *secret)
{
	if (verifier == NULL || strncmp(verifier, SCRAM_PREFIX, strlen(SCRAM_PREFIX)) != 0)
		return false;
	char	   *v = pstrdup(verifier + strlen(SCRAM_PREFIX));
	char	   *colon1 = strchr(v, ':');
	char	   *dollar = colon1 ? strchr(colon1, '$') : NULL;
	char	   *colon2 = dollar ? strchr(dollar, ':') : NULL;
	uint8_t    *key;
	size_t		keylen;

	if (colon2 == NULL)
		return false;
	*colon1 = *dollar = *colon2 = '\0';
	char	   *end;

	secret->iterations = (int) strtol(v, &end, 10);
	if (*end != '\0' || secret->iterations < 1)
		return false;
	secret->salt_b64 = colon1 + 1;
	if (!b64_decode(secret->salt_b64, strlen(secret->salt_b64), &secret->salt, &secret->saltlen))
		return false;
	if (!b64_decode(dollar + 1, strlen(dollar + 1), &key, &keylen) || keylen != SCRAM_KEY_LEN)
		return false;
	memcpy(secret->stored_key, key, SCRAM_KEY_LEN);
	if (!b64_decode(colon2 + 1, strlen(colon2 + 1), &key, &keylen) || keylen != SCRAM_KEY_LEN)
		return false;
	memcpy(secret->server_key, key, SCRAM_KEY_LEN);
	return true;
}

bool
password_is_verifier(const char *password)
{
	ScramSecret secret;

	if (strlen(password) == MD5_PASSWD_LEN && strncmp(password, "md5", 3) == 0 &&
		strspn(password + 3, "0123456789abcdef") == MD5_PASSWD_LEN - 3)
		return true;
	return parse_scram_secret(password, &secret);
}

void
auth_prepare_crypto(void)
{
	uint8_t		salt[SCRAM_SALT_LEN],
				stored_key[SCRAM_KEY_LEN],
				server_key[SCRAM_KEY_LEN];

	/* OpenSSL loads its providers and seeds its generator on first use */
	RAND_bytes(salt, sizeof(salt));
	scram_keys("warm-up", salt, sizeof(salt), 1, stored_key, server_key);
}

bool
verify_plain_password(const char *user, const char *verifier, const char *password)
{
	ScramSecret secret;

	if (verifier == NULL || password[0] == '\0')
		return false;
	if (parse_scram_secret(verifier, &secret))
	{
		uint8_t		stored_key[SCRAM_KEY_LEN],
					server_key[SCRAM_KEY_LEN];

		scram_keys(password, secret.salt, secret.saltlen, secret.iterations, stored_key, server_key);
		return CRYPTO_memcmp(stored_key, secret.stored_key, SCRAM_KEY_LEN) == 0 &&
			CRYPTO_memcmp(server_key, secret.server_key, SCRAM_KEY_LEN) == 0;
	}
	if (strlen(verifier) != MD5_PASSWD_LEN || strncmp(verifier, "md5", 3) != 0)
		return false;
	return CRYPTO_memcmp(md5_build_verifier(user, password), verifier, MD5_PASSWD_LEN) == 0;
}

bool
md5_check_response(const char *verifier, const uint8_t salt[4], const char *response)
{
	char		expected[MD5_PASSWD_LEN + 1];
	char		input[32 + 4];

	if (verifier == NULL || strlen(verifier) != MD5_PASSWD_LEN || strncmp(verifier, "md5", 3) != 0 ||
		strlen(response) != MD5_PASSWD_LEN)
		return false;
	memcpy(input, verifier + 3, 32);
	memcpy(input + 32, salt, 4);
	memcpy(expected, "md5", 3);
	md5_hex(input, sizeof(input), expected + 3);
	return CRYPTO_memcmp(expected, response, MD5_PASSWD_LEN) == 0;
}

/*
 * role_password -- the verifier to check the role's password against, as
 * PostgreSQL's get_role_password: none for a role that does not exist, has no
 * password or whose password has expired (VALID UNTIL), which fail the exchange
 * as a wrong password does, so a client cannot tell which roles exist
 */
static char *
role_password(const char *user, const AuthRole *role)
{
	if (!role->found || role->verifier == NULL)
		return NULL;
	if (role->expired)
	{
		ereport(LOG, errmsg("password of role \"%s\" has expired", user));
		return NULL;
	}
	return pstrdup(role->verifier);
}

/* ---------- SCRAM exchange ---------- */

struct ScramState
{
	int			step;			/* 0: expect client-first, 1: client-final */
	bool		mock;			/* no usable secret: fail at the end */
	ScramSecret secret;
	char	   *server_nonce;
	char	   *client_nonce;
	char	   *client_first_bare;
	char	   *server_first;
	char	   *gs2_header;
};

static void
malformed(const char *detail)
{
	ereport(FATAL,
			errcode(ERRCODE_PROTOCOL_VIOLATION),
			errmsg("malformed SCRAM message"),
			errdetail("%s", detail));
}

ScramState *
scram_begin(const char *user, const char *verifier, const char *server_nonce)
{
	ScramState *state = palloc0(sizeof(ScramState));

	if (!parse_scram_secret(verifier, &state->secret))
	{
		/* a stable fake salt per user, so probing cannot tell roles apart */
		uint8_t		digest[SCRAM_KEY_LEN];
		char	   *seed = psprintf("rocklake mock salt:%s", user);

		sha256((const uint8_t *) seed, strlen(seed), digest);
		state->mock = true;
		state->secret.iterations = SCRAM_DEFAULT_ITERATIONS;
		state->secret.salt_b64 = b64_encode(digest, SCRAM_SALT_LEN);
	}
	if (server_nonce)
		state->server_nonce = pstrdup(server_nonce);
	else
	{
		uint8_t		raw[SCRAM_RAW_NONCE_LEN];

		random_bytes(raw, sizeof(raw));
		state->server_nonce = b64_encode(raw, sizeof(raw));
	}
	return state;
}

/* read_attr -- "<name>=<value>" at *p up to the next ','; the value is palloc'd */
static char *
read_attr(const char **p, char name)
{
	if ((*p)[0] != name || (*p)[1] != '=')
		malformed(psprintf("Expected attribute \"%c\" but found \"%s\".", name, *p));
	const char *start = *p + 2;
	const char *end = strchr(start, ',');
	size_t		len = end ? (size_t) (end - start) : strlen(start);

	*p = end ? end + 1 : start + len;
	return pnstrdup(start, len);
}

static ScramResult
scram_client_first(ScramState *state, const char *input, char **output, size_t *outlen)
{
	const char *p = input;

	switch (*p)
	{
		case 'n':
		case 'y':
			if (p[1] != ',')
				malformed("Comma expected after the channel-binding flag.");
			p += 2;
			break;
		case 'p':
			ereport(FATAL,
					errcode(ERRCODE_PROTOCOL_VIOLATION),
					errmsg("malformed SCRAM message"),
					errdetail("The client selected SCRAM-SHA-256 without channel binding, "
							  "but the SCRAM message includes channel binding data."));
			break;
		default:
			malformed("Unexpected channel-binding flag.");
	}
	if (*p == 'a')
		ereport(FATAL,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("client uses authorization identity, but it is not supported"));
	if (*p++ != ',')
		malformed("Unexpected attribute in client-first-message.");
	state->gs2_header = pnstrdup(input, (size_t) (p - input));
	state->client_first_bare = pstrdup(p);
	read_attr(&p, 'n');			/* ignored: the startup packet names the user */
	state->client_nonce = read_attr(&p, 'r');
	if (state->client_nonce[0] == '\0')
		malformed("The client nonce is empty.");
	for (const char *c = state->client_nonce; *c; c++)
		if (*c < 0x21 || *c > 0x7e || *c == ',')
			malformed("The client nonce contains an invalid character.");
	if (*p != '\0')
		malformed("Extensions are not supported.");
	state->server_first = psprintf("r=%s%s,s=%s,i=%d", state->client_nonce, state->server_nonce,
								   state->secret.salt_b64, state->secret.iterations);
	*output = pstrdup(state->server_first);
	*outlen = strlen(*output);
	state->step = 1;
	return SCRAM_CONTINUE;
}

static ScramResult
scram_client_final(ScramState *state, const char *input, char **output, size_t *outlen)
{
	const char *p = input;
	char	   *cbind = read_attr(&p, 'c');
	uint8_t    *decoded;
	size_t		decodedlen;

	if (!b64_decode(cbind, strlen(cbind), &decoded, &decodedlen) ||
		decodedlen != strlen(state->gs2_header) ||
		memcmp(decoded, state->gs2_header, decodedlen) != 0)
		malformed("Unexpected SCRAM channel-binding attribute in client-final-message.");
	char	   *nonce = read_attr(&p, 'r');

	if (strcmp(nonce, psprintf("%s%s", state->client_nonce, state->server_nonce)) != 0)
		malformed("Nonce does not match.");
	size_t		without_proof_len = (size_t) (p - input) - 1;
	char	   *proof_b64 = read_attr(&p, 'p');
	uint8_t    *proof;
	size_t		prooflen;

	if (*p != '\0')
		malformed("Garbage found at the end of client-final-message.");
	if (!b64_decode(proof_b64, strlen(proof_b64), &proof, &prooflen) || prooflen != SCRAM_KEY_LEN)
		malformed("Malformed proof in client-final-message.");

	/* AuthMessage = client-first-bare , server-first , client-final-without-proof */
	char	   *auth_message = psprintf("%s,%s,%.*s", state->client_first_bare, state->server_first,
										(int) without_proof_len, input);
	uint8_t		signature[SCRAM_KEY_LEN],
				client_key[SCRAM_KEY_LEN],
				stored[SCRAM_KEY_LEN];

	hmac_sha256(state->secret.stored_key, SCRAM_KEY_LEN, auth_message, strlen(auth_message), signature);
	for (int i = 0; i < SCRAM_KEY_LEN; i++)
		client_key[i] = proof[i] ^ signature[i];
	sha256(client_key, SCRAM_KEY_LEN, stored);
	if (state->mock || CRYPTO_memcmp(stored, state->secret.stored_key, SCRAM_KEY_LEN) != 0)
		return SCRAM_FAILURE;
	hmac_sha256(state->secret.server_key, SCRAM_KEY_LEN, auth_message, strlen(auth_message), signature);
	*output = psprintf("v=%s", b64_encode(signature, SCRAM_KEY_LEN));
	*outlen = strlen(*output);
	return SCRAM_SUCCESS;
}

ScramResult
scram_exchange(ScramState *state, const char *input, size_t inputlen,
			   char **output, size_t *outlen)
{
	char	   *text = pnstrdup(input, inputlen);

	*output = NULL;
	*outlen = 0;
	if (strlen(text) != inputlen)
		malformed("The message contains a null byte.");
	return state->step == 0 ? scram_client_first(state, text, output, outlen)
		: scram_client_final(state, text, output, outlen);
}

/* ---------- the exchange with the client ---------- */

static void
send_auth_request(int32_t code, const void *data, size_t len)
{
	PqMsgBuilder msg;

	pq_beginmsg(&msg, PqMsg_AuthenticationRequest);
	pq_sendint32(&msg, (uint32_t) code);
	if (len)
		pq_sendbytes(&msg, data, len);
	pq_endmsg(&msg);
	pq_flush();
}

/*
 * recv_password_packet -- the client's 'p' message
 *
 * A client that simply closes the connection after the request (psql asking
 * for a password, pg_isready) is not an error worth a log line.
 */
static void
recv_password_packet(PqMsgReader *reader)
{
	int			type = pq_getmsgtype();
	uint8_t    *body;
	size_t		len;

	if (type == EOF_ON_CLIENT)
		exit(0);
	if (type != PqMsg_PasswordMessage)
		ereport(FATAL,
				errcode(ERRCODE_PROTOCOL_VIOLATION),
				errmsg("expected password response, got message type %d", type));
	if (pq_getmsgbody((char) type, &body, &len, PQ_AUTH_MESSAGE_LIMIT) != 0)
		exit(0);
	pq_initreader(reader, (char) type, body, len);
}

static void
auth_failed(const char *user)
{
	ereport(FATAL,
			errcode(ERRCODE_INVALID_PASSWORD),
			errmsg("password authentication failed for user \"%s\"", user));
}

static bool
auth_cleartext(const char *user, const char *verifier)
{
	PqMsgReader r;

	send_auth_request(AUTH_REQ_PASSWORD, NULL, 0);
	recv_password_packet(&r);
	const char *password = pq_getmsgrawstring(&r);

	pq_getmsgend(&r);
	return verify_plain_password(user, verifier, password);
}

static bool
auth_md5(const char *verifier)
{
	uint8_t		salt[4];
	PqMsgReader r;

	random_bytes(salt, sizeof(salt));
	send_auth_request(AUTH_REQ_MD5, salt, sizeof(salt));
	recv_password_packet(&r);
	const char *response = pq_getmsgrawstring(&r);

	pq_getmsgend(&r);
	return md5_check_response(verifier, salt, response);
}

static bool
auth_scram(const char *user, const char *verifier)
{
	static const char mechanisms[] = "SCRAM-SHA-256\0";	/* list ends with an empty name */
	ScramState *state = scram_begin(user, verifier, NULL);
	ScramResult result = SCRAM_CONTINUE;
	bool		initial = true;

	send_auth_request(AUTH_REQ_SASL, mechanisms, sizeof(mechanisms));
	while (result == SCRAM_CONTINUE)
	{
		PqMsgReader r;
		const uint8_t *data;
		size_t		len;
		char	   *output;
		size_t		outlen;

		recv_password_packet(&r);
		if (initial)
		{
			const char *mech = pq_getmsgrawstring(&r);
			int32_t		ilen = pq_getmsgint32(&r);

			if (strcmp(mech, "SCRAM-SHA-256") != 0)
				ereport(FATAL,
						errcode(ERRCODE_PROTOCOL_VIOLATION),
						errmsg("client selected an invalid SASL authentication mechanism"));
			len = ilen < 0 ? 0 : (size_t) ilen;
			initial = false;
		}
		else
			len = pq_getmsgremaining(&r);
		data = pq_getmsgbytes(&r, len);
		pq_getmsgend(&r);
		result = scram_exchange(state, (const char *) data, len, &output, &outlen);
		if (result != SCRAM_FAILURE)
			send_auth_request(result == SCRAM_SUCCESS ? AUTH_REQ_SASL_FIN : AUTH_REQ_SASL_CONT,
							  output, outlen);
	}
	return result == SCRAM_SUCCESS;
}

void
ClientAuthentication(const char *data_directory, const char *user, const char *database, const AuthRole *role)
{
	HbaRules   *rules = hba_load(psprintf("%s/rocklake_hba.conf", data_directory));
	HbaConnInfo conn = {
		.is_unix = MyProcPort->is_unix,
		.ssl = MyProcPort->ssl_in_use,
		.remote_host = MyProcPort->remote_host,
		.user = user,
		.database = database,
	};
	UserAuth	method;
	const char *encryption = MyProcPort->ssl_in_use ? "SSL encryption" : "no encryption";

	if (!hba_lookup(rules, &conn, &method))
		ereport(FATAL,
				errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
				errmsg("no pg_hba.conf entry for host \"%s\", user \"%s\", database \"%s\", %s",
					   MyProcPort->remote_host, user, database, encryption));
	if (method == uaReject)
		ereport(FATAL,
				errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
				errmsg("pg_hba.conf rejects connection for host \"%s\", user \"%s\", database \"%s\", %s",
					   MyProcPort->remote_host, user, database, encryption));
	if (method != uaTrust)
	{
		char	   *verifier = role_password(user, role);
		bool		ok;

		if (method == uaPassword)
			ok = auth_cleartext(user, verifier);
		else if (method == uaMD5 && (verifier == NULL || strncmp(verifier, "md5", 3) == 0))
			ok = auth_md5(verifier);
		else
			ok = auth_scram(user, verifier);
		if (!ok)
			auth_failed(user);
	}
	send_auth_request(AUTH_REQ_OK, NULL, 0);
	/* then, as PostgreSQL's InitializeSessionUserId, whether the role may log in */
	if (!role->found)
		ereport(FATAL, errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
				errmsg("role \"%s\" does not exist", user));
	if (!role->canlogin)
		ereport(FATAL, errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
				errmsg("role \"%s\" is not permitted to log in", user));
}
