/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jitdump files: what a JIT runtime (node --perf-prof, the JVM's and
 * .NET's perf agents, wasmtime) writes as jit-PID.dump about the code it
 * generates, read into a list of code loads (name, address, bytes), and
 * made into an ELF image of that code (opd_jitelf.h).  The file is
 * untrusted input: every length is checked against what is there.
 *
 * The layout (all fields in the writer's byte order, found from the
 * magic): a header of 40 bytes or more (u32 magic 0x4A695444, u32
 * version, u32 header size, u32 ELF machine, u32 pad, u32 pid, u64
 * timestamp, u64 flags), then records, each with a header (u32 id, u32
 * record size, u64 timestamp).  Code loads (id 0) carry u32 pid, u32 tid,
 * u64 vma, u64 code address, u64 code size, u64 code index, the name
 * (NUL-terminated) and the code bytes; code moves (id 1) carry pid, tid,
 * vma, old and new code address, code size and index.  Debug, unwinding
 * and close records, and ids not known here, are skipped.
 */
#ifndef OPD_JITDUMP_H
#define OPD_JITDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OPD_JITDUMP_MAGIC 0x4A695444u
/* a jitdump file read whole is never larger than this */
#define OPD_JITDUMP_MAX ((size_t)1 << 30)

/* format errors; system errors are -errno */
#define OPD_JITDUMP_ERRORS(X)                                                      \
	X(OPD_JITDUMP_ERR_MAGIC, "not a jitdump file (no JiTD magic)")              \
	X(OPD_JITDUMP_ERR_VERSION, "jitdump version 0 is not one this tool reads") \
	X(OPD_JITDUMP_ERR_HEADER, "the jitdump header is cut short or corrupt")     \
	X(OPD_JITDUMP_ERR_RECORD, "a jitdump record has an impossible size")        \
	X(OPD_JITDUMP_ERR_LOADS, "too many code loads in the jitdump")              \
	X(OPD_JITDUMP_ERR_EMPTY, "no code loads in the jitdump")                    \
	X(OPD_JITDUMP_ERR_REGIONS, "the code lies in too many separate regions for one ELF file")

enum opd_jitdump_err {
	OPD_JITDUMP_ERR_BASE = -5100,
#define OPD_JITDUMP_ENUM(name, msg) name,
	OPD_JITDUMP_ERRORS(OPD_JITDUMP_ENUM)
#undef OPD_JITDUMP_ENUM
};

/* the message of a code of this list, or op_strerror()'s for -errno */
const char *opd_jitdump_strerror(int err);

/* one piece of generated code */
struct opd_jit_code {
	uint64_t addr;			/* where it ran */
	uint64_t size;			/* bytes of code */
	uint64_t index;			/* the runtime's code index */
	const char *name;		/* borrowed from the dump's bytes */
	const unsigned char *code;	/* size bytes, borrowed likewise */
};

struct opd_jitdump {
	bool swapped;			/* written in the other byte order */
	uint32_t version;
	uint32_t elf_mach;		/* the ELF machine (EM_*) of the code */
	uint32_t pid;			/* the writer's, from the header */
	struct opd_jit_code *codes;	/* loads and moves, in file order */
	size_t nr_codes;
	size_t nr_records;		/* records read, of every kind */
	bool cut;			/* the last record was cut short (the
					 * writer died mid-write): ignored */
};

/*
 * Parse the len bytes of a jitdump at data into *d, whose pointers borrow
 * from data (keep it until opd_jitdump_release()).  Returns 0 or
 * -ENOMEM, or an OPD_JITDUMP_ERR_* code; *d holds nothing to release
 * after a failure.
 */
int opd_jitdump_parse(const void *data, size_t len, struct opd_jitdump *d);

/* free what opd_jitdump_parse() allocated; NULL-safe */
void opd_jitdump_release(struct opd_jitdump *d);

/*
 * The file's base name is a jitdump's: "jit-DIGITS.dump".  Runtimes write
 * it in a directory of their choice and map it executable so that
 * recorders see its path.
 */
bool opd_jitdump_name(const char *path);

#endif
