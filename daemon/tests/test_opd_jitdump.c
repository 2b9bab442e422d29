// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opd_jitdump and opd_jitelf: dumps built here, in both byte orders, read
 * into the code loads they hold (moves add the code again at its new
 * address; other records are skipped; a record cut at the end is flagged
 * and ignored; impossible sizes are refused), and made into ELF images
 * whose headers, segments and symbols are checked field by field.
 */
#include "config.h"

#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/opd_jitdump.h"
#include "daemon/opd_jitelf.h"

#define ADDR 0x7f0000001000ull

struct dump {
	unsigned char b[4096];
	size_t len;
	bool big;
};

static void put(struct dump *d, uint64_t v, unsigned bytes)
{
	unsigned i;

	for (i = 0; i < bytes; i++)
		d->b[d->len++] = (unsigned char)(v >> (d->big ? 8 * (bytes - 1 - i) : 8 * i));
}

static void header(struct dump *d, uint32_t mach)
{
	put(d, OPD_JITDUMP_MAGIC, 4);
	put(d, 1, 4);
	put(d, 40, 4);
	put(d, mach, 4);
	put(d, 0, 4);
	put(d, 4242, 4);
	put(d, 1, 8);
	put(d, 0, 8);
}

static void load(struct dump *d, const char *name, uint64_t addr, size_t size,
		 uint64_t index)
{
	size_t i, len = strlen(name) + 1;

	put(d, 0, 4);
	put(d, 16 + 40 + len + size, 4);
	put(d, 2, 8);
	put(d, 4242, 4);
	put(d, 4242, 4);
	put(d, addr, 8);
	put(d, addr, 8);
	put(d, size, 8);
	put(d, index, 8);
	memcpy(d->b + d->len, name, len);
	d->len += len;
	for (i = 0; i < size; i++)
		d->b[d->len++] = (unsigned char)(0x90 + i);
}

static void move(struct dump *d, uint64_t from, uint64_t to, uint64_t index)
{
	put(d, 1, 4);
	put(d, 16 + 48, 4);
	put(d, 3, 8);
	put(d, 4242, 4);
	put(d, 4242, 4);
	put(d, to, 8);
	put(d, from, 8);
	put(d, to, 8);
	put(d, 8, 8);
	put(d, index, 8);
}

static void other(struct dump *d, uint32_t id, size_t body)
{
	put(d, id, 4);
	put(d, 16 + body, 4);
	put(d, 4, 8);
	memset(d->b + d->len, 0xee, body);
	d->len += body;
}

static void test_parse(void **state)
{
	struct dump d = { .len = 0 };
	struct opd_jitdump j;

	(void)state;
	header(&d, EM_X86_64);
	other(&d, 2, 24);	/* debug info */
	load(&d, "first", ADDR, 16, 1);
	other(&d, 77, 0);	/* not known: skipped */
	move(&d, ADDR, ADDR + 0x100, 1);
	move(&d, ADDR + 0x999, ADDR + 0x200, 1);	/* nothing there */
	load(&d, "second", ADDR + 0x40, 8, 2);
	assert_int_equal(opd_jitdump_parse(d.b, d.len, &j), 0);
	assert_false(j.swapped);
	assert_false(j.cut);
	assert_int_equal(j.pid, 4242);
	assert_int_equal(j.elf_mach, EM_X86_64);
	assert_int_equal(j.nr_records, 6);
	assert_int_equal(j.nr_codes, 3);
	assert_string_equal(j.codes[0].name, "first");
	assert_int_equal(j.codes[0].size, 16);
	assert_int_equal(j.codes[0].code[1], 0x91);
	assert_int_equal(j.codes[1].addr, ADDR + 0x100);
	assert_string_equal(j.codes[1].name, "first");
	assert_string_equal(j.codes[2].name, "second");
	opd_jitdump_release(&j);
	/* cut in the last record: the rest, flagged */
	assert_int_equal(opd_jitdump_parse(d.b, d.len - 3, &j), 0);
	assert_true(j.cut);
	assert_int_equal(j.nr_codes, 2);
	opd_jitdump_release(&j);
}

static void test_refused(void **state)
{
	struct dump d = { .len = 0 };
	struct opd_jitdump j;
	size_t rec;

	(void)state;
	header(&d, EM_X86_64);
	assert_int_equal(opd_jitdump_parse(d.b, 20, &j), OPD_JITDUMP_ERR_HEADER);
	assert_int_equal(opd_jitdump_parse(d.b, 3, &j), OPD_JITDUMP_ERR_MAGIC);
	rec = d.len;
	load(&d, "f", ADDR, 4, 1);
	d.b[0] ^= 1;
	assert_int_equal(opd_jitdump_parse(d.b, d.len, &j), OPD_JITDUMP_ERR_MAGIC);
	d.b[0] ^= 1;
	d.b[rec + 4] = 8;	/* a record smaller than its header */
	assert_int_equal(opd_jitdump_parse(d.b, d.len, &j), OPD_JITDUMP_ERR_RECORD);
	d.b[rec + 4] = 16 + 40 + 2 + 3;	/* code beyond the record */
	assert_int_equal(opd_jitdump_parse(d.b, d.len - 1, &j), OPD_JITDUMP_ERR_RECORD);
	assert_true(opd_jitdump_name("/tmp/x/jit-123.dump"));
	assert_true(opd_jitdump_name("jit-1.dump"));
	assert_false(opd_jitdump_name("/tmp/jit-.dump"));
	assert_false(opd_jitdump_name("/tmp/jit-12.dump.old"));
	assert_false(opd_jitdump_name("/tmp/jit-1x.dump"));
}

static uint64_t get(const unsigned char *p, unsigned bytes, bool big)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (big ? 8 * (bytes - 1 - i) : 8 * i);
	return v;
}

/* the image of d: class, byte order, machine, segments and symbols */
static void check_image(const struct dump *d, unsigned char class, uint32_t mach,
			uint64_t base, size_t want_loads, size_t want_syms)
{
	const bool is64 = class == ELFCLASS64;
	struct opd_jitdump j;
	unsigned char *img;
	size_t len, nr_syms, symoff, i;
	uint64_t shoff, phoff;
	unsigned shnum, shentsize;

	assert_int_equal(opd_jitdump_parse(d->b, d->len, &j), 0);
	assert_int_equal(j.swapped, d->big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__));
	assert_int_equal(opd_jitelf_build(&j, &img, &len, &nr_syms), 0);
	assert_int_equal(nr_syms, want_syms);
	assert_memory_equal(img, ELFMAG, SELFMAG);
	assert_int_equal(img[EI_CLASS], class);
	assert_int_equal(img[EI_DATA], d->big ? ELFDATA2MSB : ELFDATA2LSB);
	assert_int_equal(get(img + 18, 2, d->big), mach);
	phoff = get(img + (is64 ? 32 : 28), is64 ? 8 : 4, d->big);
	shoff = get(img + (is64 ? 40 : 32), is64 ? 8 : 4, d->big);
	assert_int_equal(get(img + (is64 ? 56 : 44), 2, d->big), want_loads);
	shentsize = (unsigned)get(img + (is64 ? 58 : 46), 2, d->big);
	shnum = (unsigned)get(img + (is64 ? 60 : 48), 2, d->big);
	assert_int_equal(shnum, want_loads + 4);
	assert_true(shoff + (uint64_t)shnum * shentsize == len);
	/* the first segment: PT_LOAD at the lowest kept code, its bytes */
	assert_int_equal(get(img + phoff, 4, d->big), PT_LOAD);
	if (is64) {
		uint64_t off = get(img + phoff + 8, 8, d->big);

		assert_int_equal(get(img + phoff + 16, 8, d->big), base);
		assert_int_equal(img[off], 0x90);
	} else {
		assert_int_equal(get(img + phoff + 8, 4, d->big), base);
	}
	/* .symtab is section want_loads + 1: its entries, named */
	symoff = (size_t)get(img + shoff + (want_loads + 1) * shentsize + (is64 ? 24 : 16),
			     is64 ? 8 : 4, d->big);
	for (i = 1; i <= want_syms; i++) {
		const unsigned char *s = img + symoff + i * (is64 ? 24 : 16);

		assert_int_equal(s[is64 ? 4 : 12], ELF64_ST_INFO(STB_GLOBAL, STT_FUNC));
		assert_true(get(s + (is64 ? 8 : 4), is64 ? 8 : 4, d->big) >= base);
	}
	free(img);
	opd_jitdump_release(&j);
}

static void test_elf(void **state)
{
	struct dump le = { .len = 0 }, be = { .len = 0, .big = true };
	struct dump x86 = { .len = 0 }, none = { .len = 0 };
	struct opd_jitdump j;
	unsigned char *img;
	size_t len, nr;

	(void)state;
	header(&le, EM_X86_64);
	load(&le, "old", ADDR, 32, 1);
	load(&le, "new", ADDR + 8, 8, 2);		/* over old: old goes */
	load(&le, "near", ADDR + 0x100, 8, 3);		/* same segment */
	load(&le, "far", ADDR + 0x100000, 8, 4);	/* a segment of its own */
	check_image(&le, ELFCLASS64, EM_X86_64, ADDR + 8, 2, 3);
	header(&be, EM_PPC64);
	load(&be, "be", ADDR, 8, 1);
	check_image(&be, ELFCLASS64, EM_PPC64, ADDR, 1, 1);
	header(&x86, EM_386);
	load(&x86, "i386", ADDR & 0xffffffff, 8, 1);
	check_image(&x86, ELFCLASS32, EM_386, ADDR & 0xffffffff, 1, 1);
	header(&none, EM_X86_64);
	load(&none, "empty", ADDR, 0, 1);
	assert_int_equal(opd_jitdump_parse(none.b, none.len, &j), 0);
	assert_int_equal(opd_jitelf_build(&j, &img, &len, &nr), OPD_JITDUMP_ERR_EMPTY);
	opd_jitdump_release(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_elf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
