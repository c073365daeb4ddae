/*
 * funcs_internal.h: what the builtin functions' files share (funcs.c, the table and
 * most functions; funcs_string.c, those on strings; funcs_admin.c, those about the
 * server and the session's connection).
 */
#ifndef RL_FUNCS_INTERNAL_H
#define RL_FUNCS_INTERNAL_H

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <openssl/md5.h>
#include <openssl/rand.h>
#include "catalog/cache.h"
#include "catalog/namespace.h"
#include "catalog/syscat.h"
#include "executor/executor.h"
#include "nodes/primnodes.h"
#include "utils/adt/numeric.h"
#include "utils/elog.h"
#include "utils/guc.h"
#include "utils/mcxt.h"
#include "utils/miscadmin.h"

/* funcs_string.c */
Value		text_of(const char *s, size_t len);
Value		f_length(ExecState *es, const Value *args, int nargs);
Value		f_octet_length(ExecState *es, const Value *args, int nargs);
Value		f_substring(ExecState *es, const Value *args, int nargs);
Value		f_like_escape(ExecState *es, const Value *args, int nargs);
Value		f_strpos(ExecState *es, const Value *args, int nargs);
Value		f_replace(ExecState *es, const Value *args, int nargs);
Value		f_btrim(ExecState *es, const Value *args, int nargs);
Value		f_ltrim(ExecState *es, const Value *args, int nargs);
Value		f_rtrim(ExecState *es, const Value *args, int nargs);
Value		f_left(ExecState *es, const Value *args, int nargs);
Value		f_right(ExecState *es, const Value *args, int nargs);
Value		f_lpad(ExecState *es, const Value *args, int nargs);
Value		f_rpad(ExecState *es, const Value *args, int nargs);
Value		f_split_part(ExecState *es, const Value *args, int nargs);
Value		f_repeat(ExecState *es, const Value *args, int nargs);
Value		f_reverse(ExecState *es, const Value *args, int nargs);
Value		f_starts_with(ExecState *es, const Value *args, int nargs);
Value		change_case(const Value *v, bool upper);
Value		f_lower(ExecState *es, const Value *args, int nargs);
Value		f_upper(ExecState *es, const Value *args, int nargs);

/* funcs_json.c */
void		json_append_value(RlBuf *out, const Value *v);
Value		f_to_json(ExecState *es, const Value *args, int nargs);
Value		f_to_jsonb(ExecState *es, const Value *args, int nargs);
Value		f_json_build_object(ExecState *es, const Value *args, int nargs);
Value		f_jsonb_build_object(ExecState *es, const Value *args, int nargs);
Value		f_json_build_array(ExecState *es, const Value *args, int nargs);
Value		f_jsonb_build_array(ExecState *es, const Value *args, int nargs);
Value		f_json_array_length(ExecState *es, const Value *args, int nargs);
Value		f_json_field(ExecState *es, const Value *args, int nargs);
Value		f_json_field_text(ExecState *es, const Value *args, int nargs);
Value		f_json_path(ExecState *es, const Value *args, int nargs);
Value		f_json_path_text(ExecState *es, const Value *args, int nargs);

/* funcs_acl.c */
Value		f_pg_has_role(ExecState *es, const Value *args, int nargs);
Value		f_pg_has_role_current(ExecState *es, const Value *args, int nargs);
Value		f_has_table_privilege(ExecState *es, const Value *args, int nargs);
Value		f_has_schema_privilege(ExecState *es, const Value *args, int nargs);

/* funcs_admin.c */
Value		f_pg_database_size_name(ExecState *es, const Value *args, int nargs);
Value		f_pg_database_size_oid(ExecState *es, const Value *args, int nargs);
Value		f_pg_postmaster_start_time(ExecState *es, const Value *args, int nargs);
Value		f_rocklake_compact(ExecState *es, const Value *args, int nargs);
Value		f_rocklake_gc(ExecState *es, const Value *args, int nargs);
Value		f_rocklake_publish_pin(ExecState *es, const Value *args, int nargs);
Value		f_rocklake_publish_unpin(ExecState *es, const Value *args, int nargs);
Value		f_rocklake_publish_pins(ExecState *es, const Value *args, int nargs);
Value		f_rocklake_publish_guard(ExecState *es, const Value *args, int nargs);
Value		f_pg_reload_conf(ExecState *es, const Value *args, int nargs);
Value		f_pg_is_in_recovery(ExecState *es, const Value *args, int nargs);
Value		f_pg_last_xact_replay_timestamp(ExecState *es, const Value *args, int nargs);
Value		f_pg_promote(ExecState *es, const Value *args, int nargs);
Value		f_pg_cancel_backend(ExecState *es, const Value *args, int nargs);
Value		f_pg_terminate_backend(ExecState *es, const Value *args, int nargs);
Value		f_inet_client_addr(ExecState *es, const Value *args, int nargs);
Value		f_inet_client_port(ExecState *es, const Value *args, int nargs);
Value		f_inet_server_addr(ExecState *es, const Value *args, int nargs);
Value		f_inet_server_port(ExecState *es, const Value *args, int nargs);

#endif
