// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Disassembly through libopcodes (pp_disasm.h).  libbfd reads the header
 * of the binary once, for its architecture, machine, byte order and
 * address size; after that every instruction is decoded from the caller's
 * bytes with one disassemble_info kept for the life of the handle, whose
 * printers append to the caller's strbuf.
 *
 * Branch targets and RIP-relative data addresses are named by the
 * caller's symbolizer first; what it leaves unnamed (PLT entries, data,
 * or everything when there is none) is named from the binary's own
 * symbols by objdump's rules (disasm_names.c).
 *
 * libopcodes reports through libbfd's error handler (unknown -M options,
 * internal complaints) and libbfd prints warnings about odd files there
 * too; a library must not print, so the handler is replaced by a silent
 * one the first time a disassembler is opened.  Options are checked here
 * against the machine's list before libopcodes sees them, since it would
 * otherwise warn about (or silently ignore) the ones it does not know.
 */
#include "config.h"

#include <bfd.h>
#include <dis-asm.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpp/symbols/pp_disasm.h"
#include "libpp/symbols/symbols_int.h"
#include "libutil/op_alloc.h"

/*
 * Option lists libopcodes 2.40 exports for some machines.  A libopcodes
 * built for x86 alone (Debian's) lacks them: weak references leave them
 * NULL there instead of failing the link.
 */
#pragma weak disassembler_options_arc
#pragma weak disassembler_options_arm
#pragma weak disassembler_options_mips
#pragma weak disassembler_options_powerpc
#pragma weak disassembler_options_riscv
#pragma weak disassembler_options_s390

struct pp_disasm {
	bfd *abfd;
	int fd;				/* ours, for the ELF symbol sizes */
	disassembler_ftype decode;
	struct disassemble_info info;	/* reused for every instruction */
	char *options;			/* checked -M options, or NULL */
	unsigned addr_digits;		/* 8 or 16 */
	uint64_t addr_mask;		/* what of an address is printed */
	pp_disasm_symbolizer symbolize;
	void *symbolize_data;
	struct pp_disasm_names *names;	/* the binary's own, for what symbolize leaves */
	struct op_strbuf *out;		/* text of the instruction in hand */
	uint64_t insn_vma;		/* address of the instruction in hand */
	bool read_failed;		/* the decoder's last read fell outside */
};

/* ---- libbfd set-up --------------------------------------------------- */

static void quiet_error(const char *fmt, va_list ap)
{
	(void)fmt;
	(void)ap;
}

static void quiet_assert(const char *fmt, const char *msg, const char *file,
			 int line)
{
	(void)fmt;
	(void)msg;
	(void)file;
	(void)line;
}

/* libbfd's state and handlers are process-wide: set once, by whoever opens first */
static pthread_once_t bfd_once = PTHREAD_ONCE_INIT;
static bool bfd_usable;

static void bfd_setup(void)
{
	bfd_usable = bfd_init() == BFD_INIT_MAGIC;
	bfd_set_error_handler(quiet_error);
	bfd_set_assert_handler(quiet_assert);
}

/* errno from libbfd's last failure, or fallback when it was not a system call */
static int bfd_errno(int fallback)
{
	int e = errno;

	if (bfd_get_error() == bfd_error_system_call && e > 0)
		return -e;
	if (bfd_get_error() == bfd_error_no_memory)
		return -ENOMEM;
	return fallback;
}

/* the file through our own fd: O_CLOEXEC, errno of our own, no FIFO hang */
static int open_file(const char *path, struct op_err *err)
{
	struct stat st;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		ret = -errno;
		op_err_set(err, "cannot open '%s': %s", path, op_strerror(ret));
		return ret;
	}
	if (fstat(fd, &st))
		ret = -errno;
	else if (S_ISDIR(st.st_mode))
		ret = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		ret = PP_SYMBOLS_ERR_NOT_OBJECT;
	else
		return fd;
	op_err_set(err, "cannot disassemble '%s': %s", path, pp_symbols_strerror(ret));
	close(fd);
	return ret;
}

/*
 * *own: a second descriptor of the file, for what libbfd does not tell
 * (elf_sym_sizes()), or -1 when none could be had
 */
static int open_bfd(const char *path, bfd **out, int *own, struct op_err *err)
{
	bfd *abfd;
	int fd, second, ret;

	*own = -1;
	fd = open_file(path, err);
	if (fd < 0)
		return fd;
	second = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	errno = 0;
	abfd = bfd_fdopenr(path, NULL, fd);	/* closes fd, also on failure */
	if (!abfd) {
		ret = bfd_errno(-ENOMEM);
		op_err_set(err, "cannot open '%s': %s", path, op_strerror(ret));
		goto out_close;
	}
	errno = 0;
	if (!bfd_check_format(abfd, bfd_object)) {
		ret = bfd_errno(PP_SYMBOLS_ERR_NOT_OBJECT);
		op_err_set(err, "cannot disassemble '%s': %s", path,
			   pp_symbols_strerror(ret));
		bfd_close(abfd);
		goto out_close;
	}
	*out = abfd;
	*own = second;
	return 0;

out_close:
	if (second >= 0)
		close(second);
	return ret;
}

/* how the message names a machine */
static const char *machine_name(bfd *abfd)
{
	if (bfd_get_arch(abfd) == bfd_arch_unknown)
		return "a machine libbfd does not know";
	return bfd_printable_arch_mach(bfd_get_arch(abfd), bfd_get_mach(abfd));
}

/* ---- disassembler options ------------------------------------------- */

static const char *const x86_options[] = {
	"x86-64", "i386", "i8086", "att", "intel", "att-mnemonic",
	"intel-mnemonic", "addr64", "addr32", "addr16", "data32", "data16",
	"suffix", "amd64", "intel64", NULL
};

static const char *const aarch64_options[] = {
	"no-aliases", "aliases", "no-notes", "notes", NULL
};

/* opt (len bytes) is name, or name is "key=" and opt "key=VALUE" with a known VALUE */
static bool option_matches(const char *opt, size_t len, const char *name,
			   const disasm_option_arg_t *arg)
{
	size_t n = strlen(name);
	size_t i;

	if (!n || name[n - 1] != '=')
		return n == len && !memcmp(opt, name, len);
	if (len <= n || memcmp(opt, name, n))
		return false;
	if (!arg || !arg->values)
		return true;
	for (i = 0; arg->values[i]; i++)
		if (strlen(arg->values[i]) == len - n &&
		    !memcmp(opt + n, arg->values[i], len - n))
			return true;
	return false;
}

static const disasm_options_and_args_t *option_table(enum bfd_architecture arch)
{
	const disasm_options_and_args_t *(*fn)(void) = NULL;

	switch (arch) {
	case bfd_arch_arc:
		fn = disassembler_options_arc;
		break;
	case bfd_arch_arm:
		fn = disassembler_options_arm;
		break;
	case bfd_arch_mips:
		fn = disassembler_options_mips;
		break;
	case bfd_arch_powerpc:
	case bfd_arch_rs6000:
		fn = disassembler_options_powerpc;
		break;
	case bfd_arch_riscv:
		fn = disassembler_options_riscv;
		break;
	case bfd_arch_s390:
		fn = disassembler_options_s390;
		break;
	default:
		break;
	}
	return fn ? fn() : NULL;
}

/*
 * The i-th option libopcodes knows for arch, with its argument values;
 * false past the last.  Machines without a list have none: libopcodes
 * could only warn about theirs (or ignore them), so all are refused.
 */
static bool option_at(enum bfd_architecture arch, size_t i, const char **name,
		      const disasm_option_arg_t **arg)
{
	const char *const *names = NULL;
	const disasm_options_and_args_t *table;

	*arg = NULL;
	if (arch == bfd_arch_i386)
		names = x86_options;
	else if (arch == bfd_arch_aarch64)
		names = aarch64_options;
	if (names) {
		*name = names[i];
		return *name != NULL;
	}
	table = option_table(arch);
	if (!table || !table->options.name || !table->options.name[i])
		return false;
	*name = table->options.name[i];
	if (table->options.arg)
		*arg = table->options.arg[i];
	return true;
}

static bool option_known(enum bfd_architecture arch, const char *opt, size_t len)
{
	const disasm_option_arg_t *arg;
	const char *name;
	size_t i;

	for (i = 0; option_at(arch, i, &name, &arg); i++)
		if (option_matches(opt, len, name, arg))
			return true;
	return false;
}

/* "x86-64, i386, ..." or "none" for the message about a bad option */
static void list_options(enum bfd_architecture arch, struct op_strbuf *sb)
{
	const disasm_option_arg_t *arg;
	const char *name;
	size_t i;

	for (i = 0; option_at(arch, i, &name, &arg); i++)
		op_strbuf_addf(sb, "%s%s%s", i ? ", " : "", name,
			       name[0] && name[strlen(name) - 1] == '=' ? "..." : "");
	if (!i)
		op_strbuf_addstr(sb, "none");
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * Check the comma-separated options and keep them without blanks or empty
 * items, as libopcodes wants them; *out is NULL when none are left.
 */
static int parse_options(const struct pp_disasm *d, const char *options,
			 char **out, struct op_err *err)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	enum bfd_architecture arch = bfd_get_arch(d->abfd);
	const char *p = options;

	*out = NULL;
	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t len;

		if (!end)
			end = p + strlen(p);
		while (p < end && is_blank(*p))
			p++;
		len = (size_t)(end - p);
		while (len && is_blank(p[len - 1]))
			len--;
		if (len && !option_known(arch, p, len)) {
			op_strbuf_reset(&sb);
			list_options(arch, &sb);
			op_err_set(err, "disassembler option '%.*s' not known for %s "
				   "(known: %s)", (int)len, p, machine_name(d->abfd),
				   sb.buf);
			op_strbuf_release(&sb);
			return PP_SYMBOLS_ERR_BAD_OPTIONS;
		}
		if (len) {
			if (sb.len)
				op_strbuf_addch(&sb, ',');
			op_strbuf_add(&sb, p, len);
		}
		p = *end ? end + 1 : end;
	}
	if (op_strbuf_failed(&sb))
		return -ENOMEM;
	if (sb.len)
		*out = op_strbuf_detach(&sb);
	return 0;
}

/* ---- printers: libopcodes' output goes to d->out --------------------- */

/*
 * Nearly every call prints one string: x86 hands over each styled piece
 * as "%.*s", others use "%s" or a constant.  Appending those directly
 * instead of through vsnprintf nearly halves the time per instruction.
 */
static int append_vf(struct op_strbuf *sb, const char *fmt, va_list ap)
{
	size_t before = sb->len;

	if (!strcmp(fmt, "%.*s")) {
		int prec = va_arg(ap, int);
		const char *s = va_arg(ap, const char *);

		if (prec < 0)
			op_strbuf_addstr(sb, s);
		else
			op_strbuf_add(sb, s, strnlen(s, (size_t)prec));
	} else if (!strcmp(fmt, "%s")) {
		op_strbuf_addstr(sb, va_arg(ap, const char *));
	} else if (!strchr(fmt, '%'))
		op_strbuf_addstr(sb, fmt);
	else
		op_strbuf_vaddf(sb, fmt, ap);
	return (int)(sb->len - before);
}

static int OP_PRINTF(2, 3) print_plain(void *stream, const char *fmt, ...)
{
	struct pp_disasm *d = stream;
	va_list ap;
	int n;

	if (!d->out)
		return 0;	/* not inside pp_disasm_insn() */
	va_start(ap, fmt);
	n = append_vf(d->out, fmt, ap);
	va_end(ap);
	return n;
}

#ifdef HAVE_DISASM_STYLED_PRINTER
static int OP_PRINTF(3, 4) print_styled(void *stream, enum disassembler_style style,
					const char *fmt, ...)
{
	struct pp_disasm *d = stream;
	va_list ap;
	int n;

	(void)style;
	if (!d->out)
		return 0;
	va_start(ap, fmt);
	n = append_vf(d->out, fmt, ap);
	va_end(ap);
	return n;
}
#endif

/* "401136 <name+0x4>": the caller's name, else one from the binary */
static void print_address(bfd_vma vma, struct disassemble_info *info)
{
	struct pp_disasm *d = info->application_data;
	struct op_strbuf *sb = d->out;
	uint64_t addr = (uint64_t)vma & d->addr_mask;
	size_t mark, named;

	if (!sb)
		return;
	if (d->symbolize) {
		mark = sb->len;
		pp_disasm_add_hex(sb, "", addr);
		op_strbuf_addstr(sb, " <");
		named = sb->len;
		d->symbolize(d->symbolize_data, addr, sb);
		if (sb->len > named) {
			op_strbuf_addch(sb, '>');
			return;
		}
		op_strbuf_setlen(sb, mark);
	}
	pp_disasm_name(d->names, addr, d->insn_vma, sb);
}

/* the caller's bytes; a failed read is remembered (see pp_disasm_insn) */
static int read_code(bfd_vma vma, bfd_byte *buf, unsigned int len,
		     struct disassemble_info *info)
{
	struct pp_disasm *d = info->application_data;
	int ret = buffer_read_memory(vma, buf, len, info);

	d->read_failed = ret != 0;
	return ret;
}

/* libopcodes' default prints "Address 0x... is out of bounds." */
static void memory_error(int status, bfd_vma vma, struct disassemble_info *info)
{
	struct pp_disasm *d = info->application_data;

	(void)status;
	(void)vma;
	d->read_failed = true;
}

/* ---- the handle ------------------------------------------------------- */

static void setup_info(struct pp_disasm *d)
{
	struct disassemble_info *info = &d->info;
	bool big = bfd_big_endian(d->abfd);

#ifdef HAVE_DISASM_STYLED_PRINTER
	init_disassemble_info(info, d, print_plain, print_styled);
#else
	init_disassemble_info(info, d, print_plain);
#endif
	info->application_data = d;
	info->flavour = bfd_get_flavour(d->abfd);
	info->arch = bfd_get_arch(d->abfd);
	info->mach = bfd_get_mach(d->abfd);
	info->endian = big ? BFD_ENDIAN_BIG : BFD_ENDIAN_LITTLE;
	info->endian_code = info->endian;
	info->octets_per_byte = bfd_octets_per_byte(d->abfd, NULL);
	info->read_memory_func = read_code;
	info->memory_error_func = memory_error;
	info->print_address_func = print_address;
	info->disassembler_options = d->options;
	disassemble_init_for_target(info);
}

static void set_addr_size(struct pp_disasm *d)
{
	int bits = bfd_get_arch_size(d->abfd);

	if (bits <= 0)
		bits = (int)bfd_arch_bits_per_address(d->abfd);
	d->addr_digits = bits > 32 ? 16 : 8;
	d->addr_mask = bits > 32 ? UINT64_MAX : UINT32_MAX;
}

int pp_disasm_open(const char *path, const char *options, struct pp_disasm **out,
		   struct op_err *err)
{
	struct pp_disasm *d;
	int ret;

	*out = NULL;
	pthread_once(&bfd_once, bfd_setup);
	if (!bfd_usable) {
		op_err_set(err, "libbfd does not match the headers libpp was built with");
		return PP_SYMBOLS_ERR_NO_ARCH;
	}
	d = op_calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	ret = open_bfd(path, &d->abfd, &d->fd, err);
	if (ret)
		goto out_free;
	d->decode = disassembler(bfd_get_arch(d->abfd), bfd_big_endian(d->abfd),
				 bfd_get_mach(d->abfd), d->abfd);
	if (!d->decode) {
		ret = PP_SYMBOLS_ERR_NO_ARCH;
		op_err_set(err, "cannot disassemble '%s': %s (%s)", path,
			   pp_symbols_strerror(ret), machine_name(d->abfd));
		goto out_close;
	}
	ret = parse_options(d, options, &d->options, err);
	if (ret)
		goto out_close;
	set_addr_size(d);
	setup_info(d);
	d->names = pp_disasm_names_new(d->abfd, d->fd, &d->info, d->addr_mask);
	if (!d->names) {
		ret = -ENOMEM;
		op_err_set(err, "cannot disassemble '%s': %s", path, op_strerror(ret));
		disassemble_free_target(&d->info);
		free(d->options);
		goto out_close;
	}
	*out = d;
	return 0;

out_close:
	bfd_close(d->abfd);
	if (d->fd >= 0)
		close(d->fd);
out_free:
	free(d);
	return ret;
}

int pp_bfd_open(const char *path, struct bfd **out)
{
	int own, ret;

	*out = NULL;
	pthread_once(&bfd_once, bfd_setup);
	if (!bfd_usable)
		return PP_SYMBOLS_ERR_NO_ARCH;
	ret = open_bfd(path, out, &own, NULL);
	if (!ret && own >= 0)
		close(own);
	return ret;
}

void pp_disasm_close(struct pp_disasm *d)
{
	if (!d)
		return;
	disassemble_free_target(&d->info);
	pp_disasm_names_free(d->names);	/* before the bfd that owns the symbols */
	bfd_close(d->abfd);
	if (d->fd >= 0)
		close(d->fd);
	free(d->options);
	free(d);
}

unsigned pp_disasm_addr_digits(const struct pp_disasm *d)
{
	return d->addr_digits;
}

void pp_disasm_set_symbolizer(struct pp_disasm *d, pp_disasm_symbolizer fn,
			      void *data)
{
	d->symbolize = fn;
	d->symbolize_data = data;
}

void pp_disasm_set_demangle(struct pp_disasm *d, enum pp_demangle_mode mode)
{
	pp_disasm_names_set_demangle(d->names, mode);
}

int pp_disasm_insn(struct pp_disasm *d, const unsigned char *code, size_t len,
		   uint64_t vma, struct op_strbuf *text)
{
	size_t mark = text->len;
	int ret = 0;

	if (len) {
		d->out = text;
		d->insn_vma = vma;
		d->read_failed = false;
		d->info.buffer = (bfd_byte *)code;
		d->info.buffer_vma = vma;
		d->info.buffer_length = len;
		ret = d->decode(vma, &d->info);
		d->out = NULL;
	}
	/*
	 * The decoder ran out of bytes when its last read failed: some
	 * read ahead and fall back to a shorter read (s390), x86 prints
	 * ".byte 0xe8" for a cut instruction.
	 */
	if (ret <= 0 || (size_t)ret > len || d->read_failed) {
		op_strbuf_setlen(text, mark);
		op_strbuf_addstr(text, "(bad)");
		ret = PP_SYMBOLS_ERR_BAD_INSN;
	}
	if (op_strbuf_failed(text))
		return -ENOMEM;
	return ret;
}
