/*
 * copyfmt.h: the data formats of COPY: text (tab-separated, \N for NULL, backslash
 * escapes, an in-band "\." end marker), CSV and PostgreSQL's binary format.
 *
 * Encoders turn one row of Values into the bytes of one CopyData message; the
 * decoder is incremental: bytes arrive in CopyData chunks split anywhere, rows come
 * out whole. The protocol side (CopyOutResponse, CopyData, CopyDone, CopyFail) is
 * the backend's; this module only knows formats.
 */
#ifndef RL_COPYFMT_H
#define RL_COPYFMT_H

#include <stdbool.h>

#include "common/rl_buffer.h"
#include "utils/adt/typio.h"

typedef enum CopyFormat
{
	COPY_FORMAT_TEXT,
	COPY_FORMAT_CSV,
	COPY_FORMAT_BINARY
} CopyFormat;

typedef struct CopyOptions
{
	CopyFormat	format;
	bool		header;
	char		delim;			/* '\t' text, ',' CSV */
	char		quote;			/* CSV */
	char		escape;			/* CSV */
	const char *null_string;	/* "\N" text, "" CSV */
} CopyOptions;

/* The defaults of a format (delimiter, quote, NULL string). */
void		copy_options_init(CopyOptions *opts, CopyFormat format);

/* COPY TO: the binary signature+header, a header line, one row, the binary trailer. */
void		copy_encode_start(RlBuf *out, const CopyOptions *opts, int ncolumns,
							  const char *const *names);
void		copy_encode_row(RlBuf *out, const CopyOptions *opts, int ncolumns,
							const Value *row);
void		copy_encode_end(RlBuf *out, const CopyOptions *opts);

/* COPY FROM: feed bytes, take rows. */
typedef struct CopyDecoder
{
	CopyOptions opts;
	int			ncolumns;
	const Oid  *types;
	uint8_t    *pending;		/* bytes not yet forming a whole row (palloc'd: */
	size_t		pending_len;	/* an ERROR midway leaks nothing) */
	size_t		pending_cap;
	size_t		consumed;		/* prefix of pending already turned into rows */
	bool		header_done;
	bool		finished;		/* "\." or the binary trailer seen */
	long		lineno;			/* for "COPY t, line N" context */
	const int32_t *typmods;		/* the columns' typmods (NULL: none), applied on input */
	const char *const *names;	/* the columns' names (NULL: none), for errors */
	const char *line;			/* the text line being split, while it is ... */
	size_t		line_len;
	int			column;			/* ... and the column being read in it, or -1 ... */
	const char *value;			/* ... with its text (NULL: a NULL; binary: none) */
	const char *row_line;		/* the last text row's line as a context shows it (palloc'd) */
} CopyDecoder;

void		copy_decoder_init(CopyDecoder *dec, const CopyOptions *opts, int ncolumns,
							  const Oid *types);
void		copy_decoder_feed(CopyDecoder *dec, const void *data, size_t len);
/*
 * Next whole row into row[ncolumns] (values palloc'd in the current context):
 * true if a row was produced, false if more input is needed (or the data ended).
 * at_eof says no more bytes will come (CopyDone): a last line without newline is
 * then a row, a truncated binary tuple an error. Malformed data is ERROR 22P04.
 */
bool		copy_decoder_next(CopyDecoder *dec, Value *row, bool at_eof);
void		copy_decoder_free(CopyDecoder *dec);

/*
 * The CONTEXT line of an error raised while dec decodes a row of relname, as
 * PostgreSQL's: "COPY t, line N, column c: "value"" while a value is read (or
 * ": null input"), "COPY t, line N: "line"" for the line's own errors, else
 * "COPY t, line N" (dec->names set).
 */
char	   *copy_decoder_context(const CopyDecoder *dec, const char *relname);

#endif
