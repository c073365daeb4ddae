/*
 * pg_proc.c: the builtin functions as PostgreSQL's pg_proc shows them.
 *
 * psql's \df and \sf, the regproc and regprocedure types and tools that list functions
 * read pg_proc. RockLake's builtins (funcs.c) are PostgreSQL's functions of the same
 * signatures, so each is listed here with what PostgreSQL 15 says of it: its OID, its
 * argument and result types as pg_get_function_arguments / _result print them, its
 * volatility, parallel safety, strictness, language and source (the C function's name,
 * or the SQL body), its description and pg_get_functiondef's text: a row is what
 * PostgreSQL 15 gives for 'name(types)'::regprocedure in pg_proc and from those
 * functions (test_pg_tools.py compares every row with PostgreSQL's). A builtin of
 * funcs.c that PostgreSQL has no function for (localtime() stands for LOCALTIME) is
 * not listed; json_build_object's and format's VARIADIC "any" forms are not either.
 */
#include <string.h>

#include "catalog/cache.h"
#include "catalog/pg_proc.h"
#include "common/rl_buffer.h"
#include "utils/elog.h"
#include "utils/mcxt.h"

#include <sqlite3.h>

#define STR(x) #x
#define XSTR(x) STR(x)

static const BuiltinProc procs[] = {
	{89, "version", "version", "version()", "", "text", 25, "", false, 's', 's', true, 12,
		"pgsql_version", "PostgreSQL version string",
		"CREATE OR REPLACE FUNCTION pg_catalog.version()\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pgsql_version$function$\n"},
	{395, "array_to_string", "pg_catalog.array_to_string", "array_to_string(anyarray,text)", "anyarray, text", "text", 25, "2277 25", false, 's', 's', true, 12,
		"array_to_text", "concatenate array elements, using delimiter, into text",
		"CREATE OR REPLACE FUNCTION pg_catalog.array_to_string(anyarray, text)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$array_to_text$function$\n"},
	{720, "octet_length", "pg_catalog.octet_length", "octet_length(bytea)", "bytea", "integer", 23, "17", false, 'i', 's', true, 12,
		"byteaoctetlen", "octet length",
		"CREATE OR REPLACE FUNCTION pg_catalog.octet_length(bytea)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$byteaoctetlen$function$\n"},
	{745, "current_user", "\"current_user\"", "\"current_user\"()", "", "name", 19, "", false, 's', 's', true, 12,
		"current_user", "current user name",
		"CREATE OR REPLACE FUNCTION pg_catalog.\"current_user\"()\n RETURNS name\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$current_user$function$\n"},
	{746, "session_user", "\"session_user\"", "\"session_user\"()", "", "name", 19, "", false, 's', 's', true, 12,
		"session_user", "session user name",
		"CREATE OR REPLACE FUNCTION pg_catalog.\"session_user\"()\n RETURNS name\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$session_user$function$\n"},
	{849, "position", "pg_catalog.\"position\"", "\"position\"(text,text)", "text, text", "integer", 23, "25 25", false, 'i', 's', true, 12,
		"textpos", "position of substring",
		"CREATE OR REPLACE FUNCTION pg_catalog.\"position\"(text, text)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$textpos$function$\n"},
	{861, "current_database", "current_database", "current_database()", "", "name", 19, "", false, 's', 's', true, 12,
		"current_database", "name of the current database",
		"CREATE OR REPLACE FUNCTION pg_catalog.current_database()\n RETURNS name\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$current_database$function$\n"},
	{868, "strpos", "strpos", "strpos(text,text)", "text, text", "integer", 23, "25 25", false, 'i', 's', true, 12,
		"textpos", "position of substring",
		"CREATE OR REPLACE FUNCTION pg_catalog.strpos(text, text)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$textpos$function$\n"},
	{870, "lower", "pg_catalog.lower", "lower(text)", "text", "text", 25, "25", false, 'i', 's', true, 12,
		"lower", "lowercase",
		"CREATE OR REPLACE FUNCTION pg_catalog.lower(text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$lower$function$\n"},
	{871, "upper", "pg_catalog.upper", "upper(text)", "text", "text", 25, "25", false, 'i', 's', true, 12,
		"upper", "uppercase",
		"CREATE OR REPLACE FUNCTION pg_catalog.upper(text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$upper$function$\n"},
	{873, "lpad", "pg_catalog.lpad", "lpad(text,integer,text)", "text, integer, text", "text", 25, "25 23 25", false, 'i', 's', true, 12,
		"lpad", "left-pad string to length",
		"CREATE OR REPLACE FUNCTION pg_catalog.lpad(text, integer, text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$lpad$function$\n"},
	{874, "rpad", "pg_catalog.rpad", "rpad(text,integer,text)", "text, integer, text", "text", 25, "25 23 25", false, 'i', 's', true, 12,
		"rpad", "right-pad string to length",
		"CREATE OR REPLACE FUNCTION pg_catalog.rpad(text, integer, text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$rpad$function$\n"},
	{875, "ltrim", "pg_catalog.ltrim", "ltrim(text,text)", "text, text", "text", 25, "25 25", false, 'i', 's', true, 12,
		"ltrim", "trim selected characters from left end of string",
		"CREATE OR REPLACE FUNCTION pg_catalog.ltrim(text, text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$ltrim$function$\n"},
	{876, "rtrim", "pg_catalog.rtrim", "rtrim(text,text)", "text, text", "text", 25, "25 25", false, 'i', 's', true, 12,
		"rtrim", "trim selected characters from right end of string",
		"CREATE OR REPLACE FUNCTION pg_catalog.rtrim(text, text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$rtrim$function$\n"},
	{877, "substr", "pg_catalog.substr", "substr(text,integer,integer)", "text, integer, integer", "text", 25, "25 23 23", false, 'i', 's', true, 12,
		"text_substr", "extract portion of string",
		"CREATE OR REPLACE FUNCTION pg_catalog.substr(text, integer, integer)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$text_substr$function$\n"},
	{879, "lpad", "pg_catalog.lpad", "lpad(text,integer)", "text, integer", "text", 25, "25 23", false, 'i', 's', true, 14,
		"", "left-pad string to length",
		"CREATE OR REPLACE FUNCTION pg_catalog.lpad(text, integer)\n RETURNS text\n LANGUAGE sql\n IMMUTABLE PARALLEL SAFE STRICT COST 1\nRETURN lpad($1, $2, ' '::text)\n"},
	{880, "rpad", "pg_catalog.rpad", "rpad(text,integer)", "text, integer", "text", 25, "25 23", false, 'i', 's', true, 14,
		"", "right-pad string to length",
		"CREATE OR REPLACE FUNCTION pg_catalog.rpad(text, integer)\n RETURNS text\n LANGUAGE sql\n IMMUTABLE PARALLEL SAFE STRICT COST 1\nRETURN rpad($1, $2, ' '::text)\n"},
	{881, "ltrim", "pg_catalog.ltrim", "ltrim(text)", "text", "text", 25, "25", false, 'i', 's', true, 12,
		"ltrim1", "trim spaces from left end of string",
		"CREATE OR REPLACE FUNCTION pg_catalog.ltrim(text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$ltrim1$function$\n"},
	{882, "rtrim", "pg_catalog.rtrim", "rtrim(text)", "text", "text", 25, "25", false, 'i', 's', true, 12,
		"rtrim1", "trim spaces from right end of string",
		"CREATE OR REPLACE FUNCTION pg_catalog.rtrim(text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$rtrim1$function$\n"},
	{883, "substr", "pg_catalog.substr", "substr(text,integer)", "text, integer", "text", 25, "25 23", false, 'i', 's', true, 12,
		"text_substr_no_len", "extract portion of string",
		"CREATE OR REPLACE FUNCTION pg_catalog.substr(text, integer)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$text_substr_no_len$function$\n"},
	{884, "btrim", "pg_catalog.btrim", "btrim(text,text)", "text, text", "text", 25, "25 25", false, 'i', 's', true, 12,
		"btrim", "trim selected characters from both ends of string",
		"CREATE OR REPLACE FUNCTION pg_catalog.btrim(text, text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$btrim$function$\n"},
	{885, "btrim", "pg_catalog.btrim", "btrim(text)", "text", "text", 25, "25", false, 'i', 's', true, 12,
		"btrim1", "trim spaces from both ends of string",
		"CREATE OR REPLACE FUNCTION pg_catalog.btrim(text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$btrim1$function$\n"},
	{936, "substring", "pg_catalog.\"substring\"", "\"substring\"(text,integer,integer)", "text, integer, integer", "text", 25, "25 23 23", false, 'i', 's', true, 12,
		"text_substr", "extract portion of string",
		"CREATE OR REPLACE FUNCTION pg_catalog.\"substring\"(text, integer, integer)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$text_substr$function$\n"},
	{937, "substring", "pg_catalog.\"substring\"", "\"substring\"(text,integer)", "text, integer", "text", 25, "25 23", false, 'i', 's', true, 12,
		"text_substr_no_len", "extract portion of string",
		"CREATE OR REPLACE FUNCTION pg_catalog.\"substring\"(text, integer)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$text_substr_no_len$function$\n"},
	{940, "mod", "pg_catalog.mod", "mod(smallint,smallint)", "smallint, smallint", "smallint", 21, "21 21", false, 'i', 's', true, 12,
		"int2mod", "modulus",
		"CREATE OR REPLACE FUNCTION pg_catalog.mod(smallint, smallint)\n RETURNS smallint\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$int2mod$function$\n"},
	{941, "mod", "pg_catalog.mod", "mod(integer,integer)", "integer, integer", "integer", 23, "23 23", false, 'i', 's', true, 12,
		"int4mod", "modulus",
		"CREATE OR REPLACE FUNCTION pg_catalog.mod(integer, integer)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$int4mod$function$\n"},
	{947, "mod", "pg_catalog.mod", "mod(bigint,bigint)", "bigint, bigint", "bigint", 20, "20 20", false, 'i', 's', true, 12,
		"int8mod", "modulus",
		"CREATE OR REPLACE FUNCTION pg_catalog.mod(bigint, bigint)\n RETURNS bigint\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$int8mod$function$\n"},
	{1039, "getdatabaseencoding", "getdatabaseencoding", "getdatabaseencoding()", "", "name", 19, "", false, 's', 's', true, 12,
		"getdatabaseencoding", "encoding name of current database",
		"CREATE OR REPLACE FUNCTION pg_catalog.getdatabaseencoding()\n RETURNS name\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$getdatabaseencoding$function$\n"},
	{1066, "generate_series", "pg_catalog.generate_series", "generate_series(integer,integer,integer)", "integer, integer, integer", "SETOF integer", 23, "23 23 23", true, 'i', 's', true, 12,
		"generate_series_step_int4", "non-persistent series generator",
		"CREATE OR REPLACE FUNCTION pg_catalog.generate_series(integer, integer, integer)\n RETURNS SETOF integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT SUPPORT generate_series_int4_support\nAS $function$generate_series_step_int4$function$\n"},
	{1067, "generate_series", "pg_catalog.generate_series", "generate_series(integer,integer)", "integer, integer", "SETOF integer", 23, "23 23", true, 'i', 's', true, 12,
		"generate_series_int4", "non-persistent series generator",
		"CREATE OR REPLACE FUNCTION pg_catalog.generate_series(integer, integer)\n RETURNS SETOF integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT SUPPORT generate_series_int4_support\nAS $function$generate_series_int4$function$\n"},
	{1068, "generate_series", "pg_catalog.generate_series", "generate_series(bigint,bigint,bigint)", "bigint, bigint, bigint", "SETOF bigint", 20, "20 20 20", true, 'i', 's', true, 12,
		"generate_series_step_int8", "non-persistent series generator",
		"CREATE OR REPLACE FUNCTION pg_catalog.generate_series(bigint, bigint, bigint)\n RETURNS SETOF bigint\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT SUPPORT generate_series_int8_support\nAS $function$generate_series_step_int8$function$\n"},
	{1069, "generate_series", "pg_catalog.generate_series", "generate_series(bigint,bigint)", "bigint, bigint", "SETOF bigint", 20, "20 20", true, 'i', 's', true, 12,
		"generate_series_int8", "non-persistent series generator",
		"CREATE OR REPLACE FUNCTION pg_catalog.generate_series(bigint, bigint)\n RETURNS SETOF bigint\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT SUPPORT generate_series_int8_support\nAS $function$generate_series_int8$function$\n"},
	{1081, "format_type", "format_type", "format_type(oid,integer)", "oid, integer", "text", 25, "26 23", false, 's', 's', false, 12,
		"format_type", "format a type oid and atttypmod to canonical SQL",
		"CREATE OR REPLACE FUNCTION pg_catalog.format_type(oid, integer)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE\nAS $function$format_type$function$\n"},
	{1171, "date_part", "pg_catalog.date_part", "date_part(text,timestamp with time zone)", "text, timestamp with time zone", "double precision", 701, "25 1184", false, 's', 's', true, 12,
		"timestamptz_part", "extract field from timestamp with time zone",
		"CREATE OR REPLACE FUNCTION pg_catalog.date_part(text, timestamp with time zone)\n RETURNS double precision\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$timestamptz_part$function$\n"},
	{1192, "generate_subscripts", "pg_catalog.generate_subscripts", "generate_subscripts(anyarray,integer)", "anyarray, integer", "SETOF integer", 23, "2277 23", true, 'i', 's', true, 12,
		"generate_subscripts_nodir", "array subscripts generator",
		"CREATE OR REPLACE FUNCTION pg_catalog.generate_subscripts(anyarray, integer)\n RETURNS SETOF integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$generate_subscripts_nodir$function$\n"},
	{1215, "obj_description", "pg_catalog.obj_description", "obj_description(oid,name)", "oid, name", "text", 25, "26 19", false, 's', 's', true, 14,
		"", "get description for object id and catalog name",
		"CREATE OR REPLACE FUNCTION pg_catalog.obj_description(oid, name)\n RETURNS text\n LANGUAGE sql\n STABLE PARALLEL SAFE STRICT\nBEGIN ATOMIC\n SELECT pg_description.description\n    FROM pg_description\n   WHERE ((pg_description.objoid = $1) AND (pg_description.classoid = ( SELECT pg_class.oid\n            FROM pg_class\n           WHERE ((pg_class.relname = $2) AND (pg_class.relnamespace = ('pg_catalog'::regnamespace)::oid)))) AND (pg_description.objsubid = 0));\nEND\n"},
	{1216, "col_description", "col_description", "col_description(oid,integer)", "oid, integer", "text", 25, "26 23", false, 's', 's', true, 14,
		"", "get description for table column",
		"CREATE OR REPLACE FUNCTION pg_catalog.col_description(oid, integer)\n RETURNS text\n LANGUAGE sql\n STABLE PARALLEL SAFE STRICT\nBEGIN ATOMIC\n SELECT pg_description.description\n    FROM pg_description\n   WHERE ((pg_description.objoid = $1) AND (pg_description.classoid = ('pg_class'::regclass)::oid) AND (pg_description.objsubid = $2));\nEND\n"},
	{1217, "date_trunc", "pg_catalog.date_trunc", "date_trunc(text,timestamp with time zone)", "text, timestamp with time zone", "timestamp with time zone", 1184, "25 1184", false, 's', 's', true, 12,
		"timestamptz_trunc", "truncate timestamp with time zone to specified units",
		"CREATE OR REPLACE FUNCTION pg_catalog.date_trunc(text, timestamp with time zone)\n RETURNS timestamp with time zone\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$timestamptz_trunc$function$\n"},
	{1264, "pg_char_to_encoding", "pg_char_to_encoding", "pg_char_to_encoding(name)", "name", "integer", 23, "19", false, 's', 's', true, 12,
		"PG_char_to_encoding", "convert encoding name to encoding id",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_char_to_encoding(name)\n RETURNS integer\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$PG_char_to_encoding$function$\n"},
	{1282, "quote_ident", "quote_ident", "quote_ident(text)", "text", "text", 25, "25", false, 'i', 's', true, 12,
		"quote_ident", "quote an identifier for usage in a querystring",
		"CREATE OR REPLACE FUNCTION pg_catalog.quote_ident(text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$quote_ident$function$\n"},
	{1283, "quote_literal", "pg_catalog.quote_literal", "quote_literal(text)", "text", "text", 25, "25", false, 'i', 's', true, 12,
		"quote_literal", "quote a literal for usage in a querystring",
		"CREATE OR REPLACE FUNCTION pg_catalog.quote_literal(text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$quote_literal$function$\n"},
	{1299, "now", "now", "now()", "", "timestamp with time zone", 1184, "", false, 's', 's', true, 12,
		"now", "current transaction time",
		"CREATE OR REPLACE FUNCTION pg_catalog.now()\n RETURNS timestamp with time zone\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$now$function$\n"},
	{1317, "length", "pg_catalog.length", "length(text)", "text", "integer", 23, "25", false, 'i', 's', true, 12,
		"textlen", "length",
		"CREATE OR REPLACE FUNCTION pg_catalog.length(text)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$textlen$function$\n"},
	{1342, "round", "pg_catalog.round", "round(double precision)", "double precision", "double precision", 701, "701", false, 'i', 's', true, 12,
		"dround", "round to nearest integer",
		"CREATE OR REPLACE FUNCTION pg_catalog.round(double precision)\n RETURNS double precision\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$dround$function$\n"},
	{1343, "trunc", "pg_catalog.trunc", "trunc(double precision)", "double precision", "double precision", 701, "701", false, 'i', 's', true, 12,
		"dtrunc", "truncate to integer",
		"CREATE OR REPLACE FUNCTION pg_catalog.trunc(double precision)\n RETURNS double precision\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$dtrunc$function$\n"},
	{1344, "sqrt", "pg_catalog.sqrt", "sqrt(double precision)", "double precision", "double precision", 701, "701", false, 'i', 's', true, 12,
		"dsqrt", "square root",
		"CREATE OR REPLACE FUNCTION pg_catalog.sqrt(double precision)\n RETURNS double precision\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$dsqrt$function$\n"},
	{1346, "pow", "pg_catalog.pow", "pow(double precision,double precision)", "double precision, double precision", "double precision", 701, "701 701", false, 'i', 's', true, 12,
		"dpow", "exponentiation",
		"CREATE OR REPLACE FUNCTION pg_catalog.pow(double precision, double precision)\n RETURNS double precision\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$dpow$function$\n"},
	{1368, "power", "pg_catalog.power", "power(double precision,double precision)", "double precision, double precision", "double precision", 701, "701 701", false, 'i', 's', true, 12,
		"dpow", "exponentiation",
		"CREATE OR REPLACE FUNCTION pg_catalog.power(double precision, double precision)\n RETURNS double precision\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$dpow$function$\n"},
	{1369, "character_length", "pg_catalog.character_length", "character_length(text)", "text", "integer", 23, "25", false, 'i', 's', true, 12,
		"textlen", "character length",
		"CREATE OR REPLACE FUNCTION pg_catalog.character_length(text)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$textlen$function$\n"},
	{1374, "octet_length", "pg_catalog.octet_length", "octet_length(text)", "text", "integer", 23, "25", false, 'i', 's', true, 12,
		"textoctetlen", "octet length",
		"CREATE OR REPLACE FUNCTION pg_catalog.octet_length(text)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$textoctetlen$function$\n"},
	{1381, "char_length", "pg_catalog.char_length", "char_length(text)", "text", "integer", 23, "25", false, 'i', 's', true, 12,
		"textlen", "character length",
		"CREATE OR REPLACE FUNCTION pg_catalog.char_length(text)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$textlen$function$\n"},
	{1384, "date_part", "pg_catalog.date_part", "date_part(text,date)", "text, date", "double precision", 701, "25 1082", false, 'i', 's', true, 14,
		"", "extract field from date",
		"CREATE OR REPLACE FUNCTION pg_catalog.date_part(text, date)\n RETURNS double precision\n LANGUAGE sql\n IMMUTABLE PARALLEL SAFE STRICT COST 1\nRETURN date_part($1, ($2)::timestamp without time zone)\n"},
	{1387, "pg_get_constraintdef", "pg_catalog.pg_get_constraintdef", "pg_get_constraintdef(oid)", "oid", "text", 25, "26", false, 's', 's', true, 12,
		"pg_get_constraintdef", "constraint description",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_constraintdef(oid)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_constraintdef$function$\n"},
	{1394, "abs", "pg_catalog.abs", "abs(real)", "real", "real", 700, "700", false, 'i', 's', true, 12,
		"float4abs", "absolute value",
		"CREATE OR REPLACE FUNCTION pg_catalog.abs(real)\n RETURNS real\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$float4abs$function$\n"},
	{1395, "abs", "pg_catalog.abs", "abs(double precision)", "double precision", "double precision", 701, "701", false, 'i', 's', true, 12,
		"float8abs", "absolute value",
		"CREATE OR REPLACE FUNCTION pg_catalog.abs(double precision)\n RETURNS double precision\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$float8abs$function$\n"},
	{1396, "abs", "pg_catalog.abs", "abs(bigint)", "bigint", "bigint", 20, "20", false, 'i', 's', true, 12,
		"int8abs", "absolute value",
		"CREATE OR REPLACE FUNCTION pg_catalog.abs(bigint)\n RETURNS bigint\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$int8abs$function$\n"},
	{1397, "abs", "pg_catalog.abs", "abs(integer)", "integer", "integer", 23, "23", false, 'i', 's', true, 12,
		"int4abs", "absolute value",
		"CREATE OR REPLACE FUNCTION pg_catalog.abs(integer)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$int4abs$function$\n"},
	{1398, "abs", "pg_catalog.abs", "abs(smallint)", "smallint", "smallint", 21, "21", false, 'i', 's', true, 12,
		"int2abs", "absolute value",
		"CREATE OR REPLACE FUNCTION pg_catalog.abs(smallint)\n RETURNS smallint\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$int2abs$function$\n"},
	{1402, "current_schema", "\"current_schema\"", "\"current_schema\"()", "", "name", 19, "", false, 's', 'u', true, 12,
		"current_schema", "current schema name",
		"CREATE OR REPLACE FUNCTION pg_catalog.\"current_schema\"()\n RETURNS name\n LANGUAGE internal\n STABLE STRICT\nAS $function$current_schema$function$\n"},
	{1597, "pg_encoding_to_char", "pg_encoding_to_char", "pg_encoding_to_char(integer)", "integer", "name", 19, "23", false, 's', 's', true, 12,
		"PG_encoding_to_char", "convert encoding id to encoding name",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_encoding_to_char(integer)\n RETURNS name\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$PG_encoding_to_char$function$\n"},
	{1598, "random", "random", "random()", "", "double precision", 701, "", false, 'v', 'r', true, 12,
		"drandom", "random value",
		"CREATE OR REPLACE FUNCTION pg_catalog.random()\n RETURNS double precision\n LANGUAGE internal\n PARALLEL RESTRICTED STRICT\nAS $function$drandom$function$\n"},
	{1622, "repeat", "repeat", "repeat(text,integer)", "text, integer", "text", 25, "25 23", false, 'i', 's', true, 12,
		"repeat", "replicate string n times",
		"CREATE OR REPLACE FUNCTION pg_catalog.repeat(text, integer)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$repeat$function$\n"},
	{1637, "like_escape", "pg_catalog.like_escape", "like_escape(text,text)", "text, text", "text", 25, "25 25", false, 'i', 's', true, 12,
		"like_escape", "convert LIKE pattern to use backslash escapes",
		"CREATE OR REPLACE FUNCTION pg_catalog.like_escape(text, text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$like_escape$function$\n"},
	{1642, "pg_get_userbyid", "pg_get_userbyid", "pg_get_userbyid(oid)", "oid", "name", 19, "26", false, 's', 's', true, 12,
		"pg_get_userbyid", "role name by OID (with fallback)",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_userbyid(oid)\n RETURNS name\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_userbyid$function$\n"},
	{1643, "pg_get_indexdef", "pg_catalog.pg_get_indexdef", "pg_get_indexdef(oid)", "oid", "text", 25, "26", false, 's', 's', true, 12,
		"pg_get_indexdef", "index description",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_indexdef(oid)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_indexdef$function$\n"},
	{1665, "pg_get_serial_sequence", "pg_get_serial_sequence", "pg_get_serial_sequence(text,text)", "text, text", "text", 25, "25 25", false, 's', 's', true, 12,
		"pg_get_serial_sequence", "name of sequence for a serial column",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_serial_sequence(text, text)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_serial_sequence$function$\n"},
	{1705, "abs", "pg_catalog.abs", "abs(numeric)", "numeric", "numeric", 1700, "1700", false, 'i', 's', true, 12,
		"numeric_abs", "absolute value",
		"CREATE OR REPLACE FUNCTION pg_catalog.abs(numeric)\n RETURNS numeric\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$numeric_abs$function$\n"},
	{1707, "round", "pg_catalog.round", "round(numeric,integer)", "numeric, integer", "numeric", 1700, "1700 23", false, 'i', 's', true, 12,
		"numeric_round", "value rounded to 'scale'",
		"CREATE OR REPLACE FUNCTION pg_catalog.round(numeric, integer)\n RETURNS numeric\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$numeric_round$function$\n"},
	{1708, "round", "pg_catalog.round", "round(numeric)", "numeric", "numeric", 1700, "1700", false, 'i', 's', true, 14,
		"", "value rounded to 'scale' of zero",
		"CREATE OR REPLACE FUNCTION pg_catalog.round(numeric)\n RETURNS numeric\n LANGUAGE sql\n IMMUTABLE PARALLEL SAFE STRICT COST 1\nRETURN round($1, 0)\n"},
	{1709, "trunc", "pg_catalog.trunc", "trunc(numeric,integer)", "numeric, integer", "numeric", 1700, "1700 23", false, 'i', 's', true, 12,
		"numeric_trunc", "value truncated to 'scale'",
		"CREATE OR REPLACE FUNCTION pg_catalog.trunc(numeric, integer)\n RETURNS numeric\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$numeric_trunc$function$\n"},
	{1710, "trunc", "pg_catalog.trunc", "trunc(numeric)", "numeric", "numeric", 1700, "1700", false, 'i', 's', true, 14,
		"", "value truncated to 'scale' of zero",
		"CREATE OR REPLACE FUNCTION pg_catalog.trunc(numeric)\n RETURNS numeric\n LANGUAGE sql\n IMMUTABLE PARALLEL SAFE STRICT COST 1\nRETURN trunc($1, 0)\n"},
	{1711, "ceil", "pg_catalog.ceil", "ceil(numeric)", "numeric", "numeric", 1700, "1700", false, 'i', 's', true, 12,
		"numeric_ceil", "nearest integer >= value",
		"CREATE OR REPLACE FUNCTION pg_catalog.ceil(numeric)\n RETURNS numeric\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$numeric_ceil$function$\n"},
	{1712, "floor", "pg_catalog.floor", "floor(numeric)", "numeric", "numeric", 1700, "1700", false, 'i', 's', true, 12,
		"numeric_floor", "nearest integer <= value",
		"CREATE OR REPLACE FUNCTION pg_catalog.floor(numeric)\n RETURNS numeric\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$numeric_floor$function$\n"},
	{1716, "pg_get_expr", "pg_catalog.pg_get_expr", "pg_get_expr(pg_node_tree,oid)", "pg_node_tree, oid", "text", 25, "194 26", false, 's', 's', true, 12,
		"pg_get_expr", "deparse an encoded expression",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_expr(pg_node_tree, oid)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_expr$function$\n"},
	{1993, "shobj_description", "shobj_description", "shobj_description(oid,name)", "oid, name", "text", 25, "26 19", false, 's', 's', true, 14,
		"", "get description for object id and shared catalog name",
		"CREATE OR REPLACE FUNCTION pg_catalog.shobj_description(oid, name)\n RETURNS text\n LANGUAGE sql\n STABLE PARALLEL SAFE STRICT\nBEGIN ATOMIC\n SELECT pg_shdescription.description\n    FROM pg_shdescription\n   WHERE ((pg_shdescription.objoid = $1) AND (pg_shdescription.classoid = ( SELECT pg_class.oid\n            FROM pg_class\n           WHERE ((pg_class.relname = $2) AND (pg_class.relnamespace = ('pg_catalog'::regnamespace)::oid)))));\nEND\n"},
	{2010, "length", "pg_catalog.length", "length(bytea)", "bytea", "integer", 23, "17", false, 'i', 's', true, 12,
		"byteaoctetlen", "octet length",
		"CREATE OR REPLACE FUNCTION pg_catalog.length(bytea)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$byteaoctetlen$function$\n"},
	{2020, "date_trunc", "pg_catalog.date_trunc", "date_trunc(text,timestamp without time zone)", "text, timestamp without time zone", "timestamp without time zone", 1114, "25 1114", false, 'i', 's', true, 12,
		"timestamp_trunc", "truncate timestamp to specified units",
		"CREATE OR REPLACE FUNCTION pg_catalog.date_trunc(text, timestamp without time zone)\n RETURNS timestamp without time zone\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$timestamp_trunc$function$\n"},
	{2021, "date_part", "pg_catalog.date_part", "date_part(text,timestamp without time zone)", "text, timestamp without time zone", "double precision", 701, "25 1114", false, 'i', 's', true, 12,
		"timestamp_part", "extract field from timestamp",
		"CREATE OR REPLACE FUNCTION pg_catalog.date_part(text, timestamp without time zone)\n RETURNS double precision\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$timestamp_part$function$\n"},
	{2026, "pg_backend_pid", "pg_backend_pid", "pg_backend_pid()", "", "integer", 23, "", false, 's', 'r', true, 12,
		"pg_backend_pid", "statistics: current backend PID",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_backend_pid()\n RETURNS integer\n LANGUAGE internal\n STABLE PARALLEL RESTRICTED STRICT\nAS $function$pg_backend_pid$function$\n"},
	{2049, "to_char", "pg_catalog.to_char", "to_char(timestamp without time zone,text)", "timestamp without time zone, text", "text", 25, "1114 25", false, 's', 's', true, 12,
		"timestamp_to_char", "format timestamp to text",
		"CREATE OR REPLACE FUNCTION pg_catalog.to_char(timestamp without time zone, text)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$timestamp_to_char$function$\n"},
	{2077, "current_setting", "pg_catalog.current_setting", "current_setting(text)", "text", "text", 25, "25", false, 's', 's', true, 12,
		"show_config_by_name", "SHOW X as a function",
		"CREATE OR REPLACE FUNCTION pg_catalog.current_setting(text)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$show_config_by_name$function$\n"},
	{2078, "set_config", "set_config", "set_config(text,text,boolean)", "text, text, boolean", "text", 25, "25 25 16", false, 'v', 'u', false, 12,
		"set_config_by_name", "SET X as a function",
		"CREATE OR REPLACE FUNCTION pg_catalog.set_config(text, text, boolean)\n RETURNS text\n LANGUAGE internal\nAS $function$set_config_by_name$function$\n"},
	{2079, "pg_table_is_visible", "pg_table_is_visible", "pg_table_is_visible(oid)", "oid", "boolean", 16, "26", false, 's', 's', true, 12,
		"pg_table_is_visible", "is table visible in search path?",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_table_is_visible(oid)\n RETURNS boolean\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT COST 10\nAS $function$pg_table_is_visible$function$\n"},
	{2080, "pg_type_is_visible", "pg_type_is_visible", "pg_type_is_visible(oid)", "oid", "boolean", 16, "26", false, 's', 's', true, 12,
		"pg_type_is_visible", "is type visible in search path?",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_type_is_visible(oid)\n RETURNS boolean\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT COST 10\nAS $function$pg_type_is_visible$function$\n"},
	{2081, "pg_function_is_visible", "pg_function_is_visible", "pg_function_is_visible(oid)", "oid", "boolean", 16, "26", false, 's', 's', true, 12,
		"pg_function_is_visible", "is function visible in search path?",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_function_is_visible(oid)\n RETURNS boolean\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT COST 10\nAS $function$pg_function_is_visible$function$\n"},
	{2082, "pg_operator_is_visible", "pg_operator_is_visible", "pg_operator_is_visible(oid)", "oid", "boolean", 16, "26", false, 's', 's', true, 12,
		"pg_operator_is_visible", "is operator visible in search path?",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_operator_is_visible(oid)\n RETURNS boolean\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT COST 10\nAS $function$pg_operator_is_visible$function$\n"},
	{2087, "replace", "replace", "replace(text,text,text)", "text, text, text", "text", 25, "25 25 25", false, 'i', 's', true, 12,
		"replace_text", "replace all occurrences in string of old_substr with new_substr",
		"CREATE OR REPLACE FUNCTION pg_catalog.replace(text, text, text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$replace_text$function$\n"},
	{2088, "split_part", "split_part", "split_part(text,text,integer)", "text, text, integer", "text", 25, "25 25 23", false, 'i', 's', true, 12,
		"split_part", "split string by field_sep and return field_num",
		"CREATE OR REPLACE FUNCTION pg_catalog.split_part(text, text, integer)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$split_part$function$\n"},
	{2092, "array_upper", "array_upper", "array_upper(anyarray,integer)", "anyarray, integer", "integer", 23, "2277 23", false, 'i', 's', true, 12,
		"array_upper", "array upper dimension",
		"CREATE OR REPLACE FUNCTION pg_catalog.array_upper(anyarray, integer)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$array_upper$function$\n"},
	{2093, "pg_conversion_is_visible", "pg_conversion_is_visible", "pg_conversion_is_visible(oid)", "oid", "boolean", 16, "26", false, 's', 's', true, 12,
		"pg_conversion_is_visible", "is conversion visible in search path?",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_conversion_is_visible(oid)\n RETURNS boolean\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT COST 10\nAS $function$pg_conversion_is_visible$function$\n"},
	{2098, "pg_get_functiondef", "pg_get_functiondef", "pg_get_functiondef(oid)", "oid", "text", 25, "26", false, 's', 's', true, 12,
		"pg_get_functiondef", "definition of a function",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_functiondef(oid)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_functiondef$function$\n"},
	{2162, "pg_get_function_arguments", "pg_get_function_arguments", "pg_get_function_arguments(oid)", "oid", "text", 25, "26", false, 's', 's', true, 12,
		"pg_get_function_arguments", "argument list of a function",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_function_arguments(oid)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_function_arguments$function$\n"},
	{2165, "pg_get_function_result", "pg_get_function_result", "pg_get_function_result(oid)", "oid", "text", 25, "26", false, 's', 's', true, 12,
		"pg_get_function_result", "result type of a function",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_function_result(oid)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_function_result$function$\n"},
	{2167, "ceiling", "pg_catalog.ceiling", "ceiling(numeric)", "numeric", "numeric", 1700, "1700", false, 'i', 's', true, 12,
		"numeric_ceil", "nearest integer >= value",
		"CREATE OR REPLACE FUNCTION pg_catalog.ceiling(numeric)\n RETURNS numeric\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$numeric_ceil$function$\n"},
	{2168, "pg_database_size", "pg_catalog.pg_database_size", "pg_database_size(name)", "name", "bigint", 20, "19", false, 'v', 's', true, 12,
		"pg_database_size_name", "total disk space usage for the specified database",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_database_size(name)\n RETURNS bigint\n LANGUAGE internal\n PARALLEL SAFE STRICT\nAS $function$pg_database_size_name$function$\n"},
	{2176, "array_length", "array_length", "array_length(anyarray,integer)", "anyarray, integer", "integer", 23, "2277 23", false, 'i', 's', true, 12,
		"array_length", "array length",
		"CREATE OR REPLACE FUNCTION pg_catalog.array_length(anyarray, integer)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$array_length$function$\n"},
	{2286, "pg_total_relation_size", "pg_total_relation_size", "pg_total_relation_size(regclass)", "regclass", "bigint", 20, "2205", false, 'v', 's', true, 12,
		"pg_total_relation_size", "total disk space usage for the specified table and associated indexes",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_total_relation_size(regclass)\n RETURNS bigint\n LANGUAGE internal\n PARALLEL SAFE STRICT\nAS $function$pg_total_relation_size$function$\n"},
	{2288, "pg_size_pretty", "pg_catalog.pg_size_pretty", "pg_size_pretty(bigint)", "bigint", "text", 25, "20", false, 'i', 's', true, 12,
		"pg_size_pretty", "convert a long int to a human readable text using size units",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_size_pretty(bigint)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$pg_size_pretty$function$\n"},
	{2308, "ceil", "pg_catalog.ceil", "ceil(double precision)", "double precision", "double precision", 701, "701", false, 'i', 's', true, 12,
		"dceil", "nearest integer >= value",
		"CREATE OR REPLACE FUNCTION pg_catalog.ceil(double precision)\n RETURNS double precision\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$dceil$function$\n"},
	{2309, "floor", "pg_catalog.floor", "floor(double precision)", "double precision", "double precision", 701, "701", false, 'i', 's', true, 12,
		"dfloor", "nearest integer <= value",
		"CREATE OR REPLACE FUNCTION pg_catalog.floor(double precision)\n RETURNS double precision\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$dfloor$function$\n"},
	{2311, "md5", "pg_catalog.md5", "md5(text)", "text", "text", 25, "25", false, 'i', 's', true, 12,
		"md5_text", "MD5 hash",
		"CREATE OR REPLACE FUNCTION pg_catalog.md5(text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT LEAKPROOF\nAS $function$md5_text$function$\n"},
	{2320, "ceiling", "pg_catalog.ceiling", "ceiling(double precision)", "double precision", "double precision", 701, "701", false, 'i', 's', true, 12,
		"dceil", "nearest integer >= value",
		"CREATE OR REPLACE FUNCTION pg_catalog.ceiling(double precision)\n RETURNS double precision\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$dceil$function$\n"},
	{2322, "pg_tablespace_size", "pg_catalog.pg_tablespace_size", "pg_tablespace_size(oid)", "oid", "bigint", 20, "26", false, 'v', 's', true, 12,
		"pg_tablespace_size_oid", "total disk space usage for the specified tablespace",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_tablespace_size(oid)\n RETURNS bigint\n LANGUAGE internal\n PARALLEL SAFE STRICT\nAS $function$pg_tablespace_size_oid$function$\n"},
	{2325, "pg_relation_size", "pg_catalog.pg_relation_size", "pg_relation_size(regclass)", "regclass", "bigint", 20, "2205", false, 'v', 's', true, 14,
		"", "disk space usage for the main fork of the specified table or index",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_relation_size(regclass)\n RETURNS bigint\n LANGUAGE sql\n PARALLEL SAFE STRICT COST 1\nRETURN pg_relation_size($1, 'main'::text)\n"},
	{2331, "unnest", "pg_catalog.unnest", "unnest(anyarray)", "anyarray", "SETOF anyelement", 2283, "2277", true, 'i', 's', true, 12,
		"array_unnest", "expand array to set of rows",
		"CREATE OR REPLACE FUNCTION pg_catalog.unnest(anyarray)\n RETURNS SETOF anyelement\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT ROWS 100 SUPPORT array_unnest_support\nAS $function$array_unnest$function$\n"},
	{2506, "pg_get_viewdef", "pg_catalog.pg_get_viewdef", "pg_get_viewdef(oid,boolean)", "oid, boolean", "text", 25, "26 16", false, 's', 'r', true, 12,
		"pg_get_viewdef_ext", "select statement of a view with pretty-print option",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_viewdef(oid, boolean)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL RESTRICTED STRICT\nAS $function$pg_get_viewdef_ext$function$\n"},
	{2507, "pg_get_indexdef", "pg_catalog.pg_get_indexdef", "pg_get_indexdef(oid,integer,boolean)", "oid, integer, boolean", "text", 25, "26 23 16", false, 's', 's', true, 12,
		"pg_get_indexdef_ext", "index description (full create statement or single expression) with pretty-print option",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_indexdef(oid, integer, boolean)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_indexdef_ext$function$\n"},
	{2508, "pg_get_constraintdef", "pg_catalog.pg_get_constraintdef", "pg_get_constraintdef(oid,boolean)", "oid, boolean", "text", 25, "26 16", false, 's', 's', true, 12,
		"pg_get_constraintdef_ext", "constraint description with pretty-print option",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_constraintdef(oid, boolean)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_constraintdef_ext$function$\n"},
	{2509, "pg_get_expr", "pg_catalog.pg_get_expr", "pg_get_expr(pg_node_tree,oid,boolean)", "pg_node_tree, oid, boolean", "text", 25, "194 26 16", false, 's', 's', true, 12,
		"pg_get_expr_ext", "deparse an encoded expression with pretty-print option",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_expr(pg_node_tree, oid, boolean)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_expr_ext$function$\n"},
	{2626, "pg_sleep", "pg_sleep", "pg_sleep(double precision)", "double precision", "void", 2278, "701", false, 'v', 's', true, 12,
		"pg_sleep", "sleep for the specified time in seconds",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_sleep(double precision)\n RETURNS void\n LANGUAGE internal\n PARALLEL SAFE STRICT\nAS $function$pg_sleep$function$\n"},
	{2647, "transaction_timestamp", "transaction_timestamp", "transaction_timestamp()", "", "timestamp with time zone", 1184, "", false, 's', 's', true, 12,
		"now", "current transaction time",
		"CREATE OR REPLACE FUNCTION pg_catalog.transaction_timestamp()\n RETURNS timestamp with time zone\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$now$function$\n"},
	{2648, "statement_timestamp", "statement_timestamp", "statement_timestamp()", "", "timestamp with time zone", 1184, "", false, 's', 's', true, 12,
		"statement_timestamp", "current statement time",
		"CREATE OR REPLACE FUNCTION pg_catalog.statement_timestamp()\n RETURNS timestamp with time zone\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$statement_timestamp$function$\n"},
	{2649, "clock_timestamp", "clock_timestamp", "clock_timestamp()", "", "timestamp with time zone", 1184, "", false, 'v', 's', true, 12,
		"clock_timestamp", "current clock time",
		"CREATE OR REPLACE FUNCTION pg_catalog.clock_timestamp()\n RETURNS timestamp with time zone\n LANGUAGE internal\n PARALLEL SAFE STRICT\nAS $function$clock_timestamp$function$\n"},
	{2709, "pg_has_role", "pg_catalog.pg_has_role", "pg_has_role(name,text)", "name, text", "boolean", 16, "19 25", false, 's', 's', true, 12,
		"pg_has_role_name", "current user privilege on role by role name",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_has_role(name, text)\n RETURNS boolean\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_has_role_name$function$\n"},
	{2730, "pg_get_triggerdef", "pg_catalog.pg_get_triggerdef", "pg_get_triggerdef(oid,boolean)", "oid, boolean", "text", 25, "26 16", false, 's', 's', true, 12,
		"pg_get_triggerdef_ext", "trigger description with pretty-print option",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_triggerdef(oid, boolean)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_triggerdef_ext$function$\n"},
	{2997, "pg_table_size", "pg_table_size", "pg_table_size(regclass)", "regclass", "bigint", 20, "2205", false, 'v', 's', true, 12,
		"pg_table_size", "disk space usage for the specified table, including TOAST, free space and visibility map",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_table_size(regclass)\n RETURNS bigint\n LANGUAGE internal\n PARALLEL SAFE STRICT\nAS $function$pg_table_size$function$\n"},
	{3060, "left", "\"left\"", "\"left\"(text,integer)", "text, integer", "text", 25, "25 23", false, 'i', 's', true, 12,
		"text_left", "extract the first n characters",
		"CREATE OR REPLACE FUNCTION pg_catalog.\"left\"(text, integer)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$text_left$function$\n"},
	{3061, "right", "\"right\"", "\"right\"(text,integer)", "text, integer", "text", 25, "25 23", false, 'i', 's', true, 12,
		"text_right", "extract the last n characters",
		"CREATE OR REPLACE FUNCTION pg_catalog.\"right\"(text, integer)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$text_right$function$\n"},
	{3062, "reverse", "reverse", "reverse(text)", "text", "text", 25, "25", false, 'i', 's', true, 12,
		"text_reverse", "reverse text",
		"CREATE OR REPLACE FUNCTION pg_catalog.reverse(text)\n RETURNS text\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$text_reverse$function$\n"},
	{3179, "cardinality", "cardinality", "cardinality(anyarray)", "anyarray", "integer", 23, "2277", false, 'i', 's', true, 12,
		"array_cardinality", "array cardinality",
		"CREATE OR REPLACE FUNCTION pg_catalog.cardinality(anyarray)\n RETURNS integer\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$array_cardinality$function$\n"},
	{3294, "current_setting", "pg_catalog.current_setting", "current_setting(text,boolean)", "text, boolean", "text", 25, "25 16", false, 's', 's', true, 12,
		"show_config_by_name_missing_ok", "SHOW X as a function, optionally no error for missing variable",
		"CREATE OR REPLACE FUNCTION pg_catalog.current_setting(text, boolean)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$show_config_by_name_missing_ok$function$\n"},
	{3403, "pg_statistics_obj_is_visible", "pg_statistics_obj_is_visible", "pg_statistics_obj_is_visible(oid)", "oid", "boolean", 16, "26", false, 's', 's', true, 12,
		"pg_statistics_obj_is_visible", "is statistics object visible in search path?",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_statistics_obj_is_visible(oid)\n RETURNS boolean\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT COST 10\nAS $function$pg_statistics_obj_is_visible$function$\n"},
	{3425, "pg_partition_ancestors", "pg_partition_ancestors", "pg_partition_ancestors(regclass)", "partitionid regclass, OUT relid regclass", "SETOF regclass", 2205, "2205", true, 'v', 's', true, 12,
		"pg_partition_ancestors", "view ancestors of the partition",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_partition_ancestors(partitionid regclass, OUT relid regclass)\n RETURNS SETOF regclass\n LANGUAGE internal\n PARALLEL SAFE STRICT ROWS 10\nAS $function$pg_partition_ancestors$function$\n"},
	{3432, "gen_random_uuid", "gen_random_uuid", "gen_random_uuid()", "", "uuid", 2950, "", false, 'v', 's', true, 12,
		"gen_random_uuid", "generate random UUID",
		"CREATE OR REPLACE FUNCTION pg_catalog.gen_random_uuid()\n RETURNS uuid\n LANGUAGE internal\n PARALLEL SAFE STRICT LEAKPROOF\nAS $function$gen_random_uuid$function$\n"},
	{3479, "to_regprocedure", "to_regprocedure", "to_regprocedure(text)", "text", "regprocedure", 2202, "25", false, 's', 's', true, 12,
		"to_regprocedure", "convert proname to regprocedure",
		"CREATE OR REPLACE FUNCTION pg_catalog.to_regprocedure(text)\n RETURNS regprocedure\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$to_regprocedure$function$\n"},
	{3493, "to_regtype", "to_regtype", "to_regtype(text)", "text", "regtype", 2206, "25", false, 's', 's', true, 12,
		"to_regtype", "convert type name to regtype",
		"CREATE OR REPLACE FUNCTION pg_catalog.to_regtype(text)\n RETURNS regtype\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$to_regtype$function$\n"},
	{3494, "to_regproc", "to_regproc", "to_regproc(text)", "text", "regproc", 24, "25", false, 's', 's', true, 12,
		"to_regproc", "convert proname to regproc",
		"CREATE OR REPLACE FUNCTION pg_catalog.to_regproc(text)\n RETURNS regproc\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$to_regproc$function$\n"},
	{3495, "to_regclass", "to_regclass", "to_regclass(text)", "text", "regclass", 2205, "25", false, 's', 's', true, 12,
		"to_regclass", "convert classname to regclass",
		"CREATE OR REPLACE FUNCTION pg_catalog.to_regclass(text)\n RETURNS regclass\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$to_regclass$function$\n"},
	{3540, "format", "pg_catalog.format", "format(text)", "text", "text", 25, "25", false, 's', 's', false, 12,
		"text_format_nv", "format text message",
		"CREATE OR REPLACE FUNCTION pg_catalog.format(text)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE\nAS $function$text_format_nv$function$\n"},
	{3696, "starts_with", "starts_with", "starts_with(text,text)", "text, text", "boolean", 16, "25 25", false, 'i', 's', true, 12,
		"text_starts_with", "implementation of ^@ operator",
		"CREATE OR REPLACE FUNCTION pg_catalog.starts_with(text, text)\n RETURNS boolean\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT LEAKPROOF SUPPORT text_starts_with_support\nAS $function$text_starts_with$function$\n"},
	{3778, "pg_tablespace_location", "pg_tablespace_location", "pg_tablespace_location(oid)", "oid", "text", 25, "26", false, 's', 's', true, 12,
		"pg_tablespace_location", "tablespace location",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_tablespace_location(oid)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_tablespace_location$function$\n"},
	{3810, "pg_is_in_recovery", "pg_is_in_recovery", "pg_is_in_recovery()", "", "boolean", 16, "", false, 'v', 's', true, 12,
		"pg_is_in_recovery", "true if server is in recovery",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_is_in_recovery()\n RETURNS boolean\n LANGUAGE internal\n PARALLEL SAFE STRICT\nAS $function$pg_is_in_recovery$function$\n"},
	{3815, "pg_collation_is_visible", "pg_collation_is_visible", "pg_collation_is_visible(oid)", "oid", "boolean", 16, "26", false, 's', 's', true, 12,
		"pg_collation_is_visible", "is collation visible in search path?",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_collation_is_visible(oid)\n RETURNS boolean\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT COST 10\nAS $function$pg_collation_is_visible$function$\n"},
	{4086, "to_regnamespace", "to_regnamespace", "to_regnamespace(text)", "text", "regnamespace", 4089, "25", false, 's', 's', true, 12,
		"to_regnamespace", "convert namespace name to regnamespace",
		"CREATE OR REPLACE FUNCTION pg_catalog.to_regnamespace(text)\n RETURNS regnamespace\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$to_regnamespace$function$\n"},
	{6121, "pg_relation_is_publishable", "pg_relation_is_publishable", "pg_relation_is_publishable(regclass)", "regclass", "boolean", 16, "2205", false, 's', 's', true, 12,
		"pg_relation_is_publishable", "returns whether a relation can be part of a publication",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_relation_is_publishable(regclass)\n RETURNS boolean\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_relation_is_publishable$function$\n"},
	{6174, "pg_get_statisticsobjdef_columns", "pg_get_statisticsobjdef_columns", "pg_get_statisticsobjdef_columns(oid)", "oid", "text", 25, "26", false, 's', 's', true, 12,
		"pg_get_statisticsobjdef_columns", "extended statistics columns",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_statisticsobjdef_columns(oid)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_statisticsobjdef_columns$function$\n"},
	{6197, "pg_get_function_sqlbody", "pg_get_function_sqlbody", "pg_get_function_sqlbody(oid)", "oid", "text", 25, "26", false, 's', 's', true, 12,
		"pg_get_function_sqlbody", "function SQL body",
		"CREATE OR REPLACE FUNCTION pg_catalog.pg_get_function_sqlbody(oid)\n RETURNS text\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$pg_get_function_sqlbody$function$\n"},
	{6199, "extract", "pg_catalog.\"extract\"", "\"extract\"(text,date)", "text, date", "numeric", 1700, "25 1082", false, 'i', 's', true, 12,
		"extract_date", "extract field from date",
		"CREATE OR REPLACE FUNCTION pg_catalog.\"extract\"(text, date)\n RETURNS numeric\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$extract_date$function$\n"},
	{6202, "extract", "pg_catalog.\"extract\"", "\"extract\"(text,timestamp without time zone)", "text, timestamp without time zone", "numeric", 1700, "25 1114", false, 'i', 's', true, 12,
		"extract_timestamp", "extract field from timestamp",
		"CREATE OR REPLACE FUNCTION pg_catalog.\"extract\"(text, timestamp without time zone)\n RETURNS numeric\n LANGUAGE internal\n IMMUTABLE PARALLEL SAFE STRICT\nAS $function$extract_timestamp$function$\n"},
	{6203, "extract", "pg_catalog.\"extract\"", "\"extract\"(text,timestamp with time zone)", "text, timestamp with time zone", "numeric", 1700, "25 1184", false, 's', 's', true, 12,
		"extract_timestamptz", "extract field from timestamp with time zone",
		"CREATE OR REPLACE FUNCTION pg_catalog.\"extract\"(text, timestamp with time zone)\n RETURNS numeric\n LANGUAGE internal\n STABLE PARALLEL SAFE STRICT\nAS $function$extract_timestamptz$function$\n"},
	/* plpgsql's handlers, which pg_language names (psql's \dL+): not callable */
	{13560, "plpgsql_call_handler", "plpgsql_call_handler", "plpgsql_call_handler()", "", "language_handler", 2280, "", false, 'v', 'u', false, 13,
		"plpgsql_call_handler", "",
		"CREATE OR REPLACE FUNCTION pg_catalog.plpgsql_call_handler()\n RETURNS language_handler\n LANGUAGE c\nAS '$libdir/plpgsql', $function$plpgsql_call_handler$function$\n"},
	{13561, "plpgsql_inline_handler", "plpgsql_inline_handler", "plpgsql_inline_handler(internal)", "internal", "void", 2278, "2281", false, 'v', 'u', true, 13,
		"plpgsql_inline_handler", "",
		"CREATE OR REPLACE FUNCTION pg_catalog.plpgsql_inline_handler(internal)\n RETURNS void\n LANGUAGE c\n STRICT\nAS '$libdir/plpgsql', $function$plpgsql_inline_handler$function$\n"},
	{13562, "plpgsql_validator", "plpgsql_validator", "plpgsql_validator(oid)", "oid", "void", 2278, "26", false, 'v', 'u', true, 13,
		"plpgsql_validator", "",
		"CREATE OR REPLACE FUNCTION pg_catalog.plpgsql_validator(oid)\n RETURNS void\n LANGUAGE c\n STRICT\nAS '$libdir/plpgsql', $function$plpgsql_validator$function$\n"},
};

int
BuiltinProcCount(void)
{
	return (int) (sizeof(procs) / sizeof(procs[0]));
}

const BuiltinProc *
BuiltinProcAt(int i)
{
	return &procs[i];
}

const BuiltinProc *
BuiltinProcByOid(Oid oid)
{
	for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++)
		if (procs[i].oid == oid)
			return &procs[i];
	return NULL;
}

/*
 * procs_values_sql -- select FROM (VALUES ...) with a row per builtin that row() gives
 * one for (a sqlite3_mprintf'd "(...)", or NULL to leave it out), in TopMemoryContext
 */
static char *
procs_values_sql(const char *select, char *(*row) (const BuiltinProc *p))
{
	RlBuf		b;
	size_t		n = 0;
	char	   *sql;

	rlbuf_init_in(&b, CurrentMemoryContext);
	rlbuf_printf(&b, "%s FROM (VALUES ", select);
	for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++)
	{
		char	   *r = row(&procs[i]);

		if (r == NULL)
			continue;
		rlbuf_printf(&b, "%s%s", n++ ? ", " : "", r);
		sqlite3_free(r);
	}
	rlbuf_append_str(&b, ")");
	sql = MemoryContextStrdup(TopMemoryContext, rlbuf_cstr(&b));
	rlbuf_free(&b);
	return sql;
}

/* proc_row -- a builtin's pg_proc row */
static char *
proc_row(const BuiltinProc *p)
{
	int			nargs = 0;

	for (const char *a = p->argtypes; *a; a++)
		nargs += a == p->argtypes || *a == ' ';
	return sqlite3_mprintf("(%u, %Q, %u, '%c', '%c', %Q, %d, %u, %Q, %d, %d, %Q, %Q, %Q)",
						   p->oid, p->name, p->lang, p->volatility, p->parallel, p->src, nargs, p->rettype,
						   p->argtypes, p->retset, p->strict, p->result, p->arguments, p->functiondef);
}

/* BuiltinProcSql -- pg_proc as a SQLite query (once per backend) */
char *
BuiltinProcSql(void)
{
	static char *sql;

	if (sql == NULL)
		sql = procs_values_sql("SELECT column1 AS oid, column2 AS proname, " XSTR(PG_CATALOG_NAMESPACE) " AS pronamespace, "
							   XSTR(BOOTSTRAP_SUPERUSERID) " AS proowner, column3 AS prolang, 'f' AS prokind,"
							   " 0 AS prosecdef, column4 AS provolatile, column5 AS proparallel, column6 AS prosrc,"
							   " NULL AS proacl, column7 AS pronargs, column8 AS prorettype, column9 AS proargtypes,"
							   " column10 AS proretset, column11 AS proisstrict, column12 AS _rl_result,"
							   " column13 AS _rl_arguments, column14 AS _rl_functiondef", proc_row);
	return sql;
}

/* description_row -- a builtin's pg_description row, if it has a description */
static char *
description_row(const BuiltinProc *p)
{
	return p->description[0] == '\0' ? NULL : sqlite3_mprintf("(%u, %Q)", p->oid, p->description);
}

/*
 * BuiltinProcDescriptionSql -- the functions' descriptions alone (oid, description), for
 * pg_description: DuckDB's catalog batch joins pg_description at every ATTACH, and
 * pg_proc's whole text would be compiled there each time
 */
char *
BuiltinProcDescriptionSql(void)
{
	static char *sql;

	if (sql == NULL)
		sql = procs_values_sql("SELECT column1 AS oid, column2 AS description", description_row);
	return sql;
}
