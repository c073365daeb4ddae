/*
 * funcs_json.c: the json and jsonb functions and operators PostgreSQL tools and users
 * send: to_json, to_jsonb, json_build_object, json_build_array and their jsonb forms,
 * json_array_length, and the functions behind -> ->> #> #>> (the analyser writes the
 * operators as calls of them: parse_expr.c). json_agg, jsonb_agg and json_object_agg are
 * the cache's aggregates (sqlite_exec.c) over the elements to_json, to_jsonb and
 * json_build_object make here.
 *
 * A value becomes JSON as PostgreSQL's datum_to_json makes it: NULL is null, a boolean
 * true or false, a number its text when that is a JSON number (not NaN or Infinity),
 * json and jsonb their text, a date or timestamp ISO 8601's form (a T between date and
 * time, a zone as +hh:mm), an array its elements in [] (separated by "," as
 * array_to_json writes them), anything else its text as a JSON string. json keeps the
 * spacing PostgreSQL writes (json_build_object's `{"a" : 1}`, json_build_array's
 * `[1, 2]`); a jsonb result is that text read as jsonb, normalised as PostgreSQL stores
 * it (pgjson.h). The text a json operator returns is the member's text in the document
 * as it is, which for jsonb is its normalised text.
 */
#include <ctype.h>
#include <errno.h>

#include "executor/funcs_internal.h"
#include "utils/adt/pgjson.h"

/* append_json_string -- text as a JSON string, escaped as PostgreSQL's escape_json does */
static void
append_json_string(RlBuf *out, const char *s)
{
	rlbuf_append_str(out, "\"");
	for (; *s; s++)
	{
		static const char *const named[] = {['\b'] = "\\b", ['\f'] = "\\f", ['\n'] = "\\n",
		['\r'] = "\\r", ['\t'] = "\\t", ['"'] = "\\\"", ['\\'] = "\\\\"};
		unsigned char c = (unsigned char) *s;

		if (c < sizeof(named) / sizeof(named[0]) && named[c])
			rlbuf_append_str(out, named[c]);
		else if (c < 0x20)
			rlbuf_printf(out, "\\u%04x", c);
		else
			rlbuf_append(out, s, 1);
	}
	rlbuf_append_str(out, "\"");
}

/* append_json_datetime -- a date or timestamp's ISO text (DateStyle ISO) in ISO 8601's form */
static void
append_json_datetime(RlBuf *out, char *text)
{
	size_t		len = strlen(text);

	if (len > 10 && text[10] == ' ' && isdigit((unsigned char) text[11]))
		text[10] = 'T';
	/* a zone of whole hours is +hh in ISO DateStyle, +hh:00 in ISO 8601 */
	if (len > 19 && (text[len - 3] == '+' || text[len - 3] == '-') && text[len - 6] != '+' && text[len - 6] != '-')
		text = psprintf("%s:00", text);
	append_json_string(out, text);
}

void
json_append_value(RlBuf *out, const Value *v)
{
	const TypeInfo *t = typio_lookup(v->type);

	if (v->isnull)
	{
		rlbuf_append_str(out, "null");
		return;
	}
	if (v->type == BOOLOID)
	{
		rlbuf_append_str(out, v->u.b ? "true" : "false");
		return;
	}
	if (t && t->category == TYPCATEGORY_ARRAY)
	{
		ArrayElements elems = typio_array_parse(v->u.s.data);

		rlbuf_append_str(out, "[");
		for (int i = 0; i < elems.n; i++)
		{
			Value		elem = elems.items[i] ? typio_input(t->elem, elems.items[i], -1) : typio_null(t->elem);

			rlbuf_append_str(out, i ? "," : "");
			json_append_value(out, &elem);
		}
		rlbuf_append_str(out, "]");
		return;
	}

	char	   *text = typio_output(v, NULL);

	if (v->type == JSONOID || v->type == JSONBOID ||
		(t && t->category == TYPCATEGORY_NUMERIC && !typio_is_oid(v->type) &&
		 strspn(text, "0123456789.-+eE") == strlen(text)))	/* not NaN, Infinity */
		rlbuf_append_str(out, text);
	else if ((v->type == DATEOID || v->type == TIMESTAMPOID || v->type == TIMESTAMPTZOID) &&
			 isdigit((unsigned char) text[0]))
		append_json_datetime(out, text);
	else
		append_json_string(out, text);
}

/* json_result -- text as a value of type (json, or jsonb normalised) */
static Value
json_result(Oid type, RlBuf *text)
{
	const char *s = type == JSONBOID ? pgjson_input(rlbuf_cstr(text), true) : rlbuf_cstr(text);
	Value		r = typio_string(type, s, strlen(s));

	rlbuf_free(text);
	return r;
}

/* f_to_json -- to_json(anyelement) and to_jsonb(anyelement) by the type asked for */
static Value
to_json_as(const Value *v, Oid type)
{
	RlBuf		out;

	rlbuf_init_in(&out, CurrentMemoryContext);
	json_append_value(&out, v);
	return json_result(type, &out);
}

Value
f_to_json(ExecState *es, const Value *args, int nargs)
{
	return to_json_as(&args[0], JSONOID);
}

Value
f_to_jsonb(ExecState *es, const Value *args, int nargs)
{
	return to_json_as(&args[0], JSONBOID);
}

/*
 * build_object -- json_build_object(VARIADIC "any") and jsonb_build_object: keys and
 * values alternate, a key is never NULL
 */
static Value
build_object(const Value *args, int nargs, Oid type)
{
	RlBuf		out;

	if (nargs % 2 != 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("argument list must have even number of elements"),
				errhint("The arguments of %s() must consist of alternating keys and values.",
						type == JSONOID ? "json_build_object" : "jsonb_build_object"));
	rlbuf_init_in(&out, CurrentMemoryContext);
	rlbuf_append_str(&out, "{");
	for (int i = 0; i < nargs; i += 2)
	{
		if (args[i].isnull)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg(type == JSONOID ? "null value not allowed for object key"
						   : "argument %d: key must not be null", i + 1));
		rlbuf_append_str(&out, i ? ", " : "");
		append_json_string(&out, typio_output(&args[i], NULL));
		rlbuf_append_str(&out, " : ");
		json_append_value(&out, &args[i + 1]);
	}
	rlbuf_append_str(&out, "}");
	return json_result(type, &out);
}

Value
f_json_build_object(ExecState *es, const Value *args, int nargs)
{
	return build_object(args, nargs, JSONOID);
}

Value
f_jsonb_build_object(ExecState *es, const Value *args, int nargs)
{
	return build_object(args, nargs, JSONBOID);
}

static Value
build_array(const Value *args, int nargs, Oid type)
{
	RlBuf		out;

	rlbuf_init_in(&out, CurrentMemoryContext);
	rlbuf_append_str(&out, "[");
	for (int i = 0; i < nargs; i++)
	{
		rlbuf_append_str(&out, i ? ", " : "");
		json_append_value(&out, &args[i]);
	}
	rlbuf_append_str(&out, "]");
	return json_result(type, &out);
}

Value
f_json_build_array(ExecState *es, const Value *args, int nargs)
{
	return build_array(args, nargs, JSONOID);
}

Value
f_jsonb_build_array(ExecState *es, const Value *args, int nargs)
{
	return build_array(args, nargs, JSONBOID);
}

Value
f_json_array_length(ExecState *es, const Value *args, int nargs)
{
	int64_t		n = pgjson_array_length(args[0].u.s.data);

	if (n < 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg(n == -1 ? "cannot get array length of a non-array" : "cannot get array length of a scalar"));
	return typio_int(INT4OID, n);
}

/* member_value -- a member's text in doc (NULL if none) as doc's type, or as text (->>) */
static Value
member_value(const Value *doc, const char *member, bool as_text)
{
	if (member && as_text)
		member = pgjson_text(member);
	if (member == NULL)
		return typio_null(as_text ? TEXTOID : doc->type);
	return typio_string(as_text ? TEXTOID : doc->type, member, strlen(member));
}

/* json_member -- doc's member named by a text or element numbered by an integer, as text or as doc's type */
static Value
json_member(const Value *doc, const Value *step, bool as_text)
{
	const char *got = step->type == TEXTOID ? pgjson_get(doc->u.s.data, step->u.s.data, 0)
		: pgjson_get(doc->u.s.data, NULL, step->u.i);

	return member_value(doc, got, as_text);
}

/* json -> text / int (as_text: ->>) */
Value
f_json_field(ExecState *es, const Value *args, int nargs)
{
	return json_member(&args[0], &args[1], false);
}

Value
f_json_field_text(ExecState *es, const Value *args, int nargs)
{
	return json_member(&args[0], &args[1], true);
}

/* json #> text[] and #>> text[]: each step a key, or in an array an element's number */
static Value
json_path(const Value *doc, const Value *path, bool as_text)
{
	ArrayElements steps = typio_array_parse(path->u.s.data);
	const char *cur = doc->u.s.data;

	for (int i = 0; i < steps.n && cur; i++)
	{
		char	   *end;
		long long	index;

		if (steps.items[i] == NULL)
			cur = NULL;
		else if (pgjson_array_length(cur) >= 0)
		{
			errno = 0;
			index = strtoll(steps.items[i], &end, 10);
			cur = *steps.items[i] && *end == '\0' && errno == 0 && index >= INT32_MIN && index <= INT32_MAX
				? pgjson_get(cur, NULL, index) : NULL;
		}
		else
			cur = pgjson_get(cur, steps.items[i], 0);
	}
	return member_value(doc, cur, as_text);
}

Value
f_json_path(ExecState *es, const Value *args, int nargs)
{
	return json_path(&args[0], &args[1], false);
}

Value
f_json_path_text(ExecState *es, const Value *args, int nargs)
{
	return json_path(&args[0], &args[1], true);
}
