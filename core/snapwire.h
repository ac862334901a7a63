/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A snapshot on a pipe, as the acquisition child sends it back to the
 * parent (scanner/privsep.c): framed, typed records, not JSON text.
 *
 *   record = type:u8 length:u32 payload[length]       (integers little-
 *                                                      endian)
 *   'O' an observation, sent as soon as it is final (fa_snapshot_flush():
 *       the topology of a 10,000-HCA fabric is read by the parent while
 *       the child audits):
 *       family:u8 state:u8 id:str kind:str target:str request:str
 *       reason:nstr data:value
 *   'E' last: rc:i32 (the child's exit status) usable:i32 (families it
 *       could scan) snapshot:value (the snapshot without observations)
 *
 *   str   = length:u32 bytes (no NUL)       nstr = str, or 0xffffffff: null
 *   value = 'n' | 't' | 'f' | 'i' i64 | 'r' f64 (finite) | 's' str (UTF-8)
 *         | 'a' count:u32 value... | 'o' count:u32 (str value)...
 *
 * The values are JSON's, so snapshot.json (the durable, signed form)
 * holds exactly what crossed the pipe; the parent builds them without a
 * tokeniser or number conversion.  The reader adds each observation as
 * it arrives, so neither process holds the snapshot twice.  What arrives
 * is untrusted (the child parses what the fabric sends): every record is
 * bounded, every count by the bytes left, nesting to 64, strings are
 * checked UTF-8 without NUL, a member named twice is refused, each
 * observation goes through the checks of `fabaudit check`
 * (fa_snapshot_obs_take, the schema), and nothing may follow the end.
 */
#ifndef FA_SNAPWIRE_H
#define FA_SNAPWIRE_H

#include <stddef.h>
#include <stdio.h>

#include "snapshot.h"

/* The writing side. */
struct fa_snapwire_out {
	FILE	*out;
	size_t	 sent;		/* observations sent so far */
	int	 err;		/* a write failed: nothing more is sent */
	char	 why[200];	/* why, when err: for the sender to say */
};

/* Start an answer on fd, which w then owns.  0 or FA_ERR_IO. */
int fa_snapwire_open(struct fa_snapwire_out *w, int fd);

/*
 * A flush hook (struct fa_snapshot's flush, arg w): send the observations
 * not sent yet.  A failure is kept in w->err and ends the sending.
 */
void fa_snapwire_flush(struct fa_snapshot *s, void *w);

/*
 * Send what is left of s and the end line, then close the stream.  0, or
 * FA_ERR_IO when any write failed (then the answer is incomplete).
 */
int fa_snapwire_end(struct fa_snapwire_out *w, struct fa_snapshot *s,
    int rc, int usable);

/*
 * Read a whole answer from fd: a record may not exceed max_rec bytes, the
 * answer max_total.  0 with a new *out, *rc and *usable; or an error with
 * *why saying what was wrong and where: FA_ERR_IO when the answer stops
 * short (the writer gone) or a read fails, FA_ERR_TOOBIG beyond a limit,
 * FA_ERR_INPUT when it is malformed, FA_ERR_NOMEM.
 */
int fa_snapwire_read(int fd, size_t max_rec, size_t max_total,
    struct fa_snapshot **out, int *rc, int *usable, char **why);

#endif
