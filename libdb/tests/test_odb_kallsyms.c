// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's symbol and module lists: every kind of line is read into
 * its fields or recognised as not one, lookups find core kernel symbols
 * only, and hidden (zero) addresses make a list unusable.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "libdb/odb_kallsyms.h"

static void test_lines(void **state)
{
	static const struct {
		int line;
		const char *text;
		uint64_t addr;
		char type;
		const char *name, *module;	/* NULL: none */
		const char *rest;		/* what the next line starts with */
	} rows[] = {
		{ __LINE__, "ffffffff81000000 T _text\nx", 0xffffffff81000000ull, 'T',
		  "_text", NULL, "x" },
		{ __LINE__, "ffffffffc0201000 t ext4_fill_super\t[ext4]\n",
		  0xffffffffc0201000ull, 't', "ext4_fill_super", "ext4", "" },
		{ __LINE__, "0000000000000000 D jiffies", 0, 'D', "jiffies", NULL, "" },
		{ __LINE__, "ffff A\n", 0, 0, NULL, NULL, "" },
		{ __LINE__, "garbage line\nnext", 0, 0, NULL, NULL, "next" },
		{ __LINE__, "ffffffff81000000T _text\n", 0, 0, NULL, NULL, "" },
		{ __LINE__, "ffffffff81000000 \n", 0, 0, NULL, NULL, "" },
		{ __LINE__, "\nnext", 0, 0, NULL, NULL, "next" },
		{ __LINE__, "1 t f\t[mod", 1, 't', "f", "mod", "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct odb_ksym k;
		const char *next = odb_kallsyms_next(rows[i].text, &k);

		if (!next || strcmp(next, rows[i].rest) || k.addr != rows[i].addr ||
		    k.type != rows[i].type)
			fail_msg("row at line %d: next '%s' addr %llx type %d", rows[i].line,
				 next ? next : "(null)", (unsigned long long)k.addr, k.type);
		if (rows[i].name && (k.name_len != strlen(rows[i].name) ||
				     memcmp(k.name, rows[i].name, k.name_len)))
			fail_msg("row at line %d: name '%.*s'", rows[i].line,
				 (int)k.name_len, k.name);
		if (!rows[i].module != !k.module || (k.module &&
		    (k.module_len != strlen(rows[i].module) ||
		     memcmp(k.module, rows[i].module, k.module_len))))
			fail_msg("row at line %d: module '%.*s'", rows[i].line,
				 (int)k.module_len, k.module ? k.module : "");
	}
	assert_null(odb_kallsyms_next("", NULL));
}

static void test_find(void **state)
{
	static const char text[] =
		"ffffffffc0000000 t _text\t[mod]\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000010 T _text_x\n"
		"ffffffff81000000 T _text\n"
		"ffffffff82000000 T _etext\n";

	(void)state;
	assert_int_equal(odb_kallsyms_find(text, "_text"), 0xffffffff81000000ull);
	assert_int_equal(odb_kallsyms_find(text, "_etext"), 0xffffffff82000000ull);
	assert_int_equal(odb_kallsyms_find(text, "_tex"), 0);
	assert_int_equal(odb_kallsyms_find("", "_text"), 0);
	assert_true(odb_kallsyms_usable(text));
	assert_false(odb_kallsyms_usable("0000000000000000 T _text\n"
					 "0000000000000000 T _etext\n"));
	assert_false(odb_kallsyms_usable(""));
}

static void test_modules(void **state)
{
	static const struct {
		int line;
		const char *text;
		bool valid;
		const char *name;
		uint64_t size, addr;
	} rows[] = {
		{ __LINE__, "ext4 1036288 1 - Live 0xffffffffc0200000\n", true, "ext4",
		  1036288, 0xffffffffc0200000ull },
		{ __LINE__, "kvm 1146880 1 kvm_intel, Live 0xffffffffc0400000 (OE)", true,
		  "kvm", 1146880, 0xffffffffc0400000ull },
		{ __LINE__, "hidden 4096 0 - Live 0x0000000000000000\n", true, "hidden",
		  4096, 0 },
		{ __LINE__, "short 4096 0 - Live\n", false, "short", 4096, 0 },
		{ __LINE__, "bad 12x 0 - Live 0x1000\n", false, "bad", 0, 0 },
		{ __LINE__, "\n", false, NULL, 0, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct odb_kmodule m;

		assert_non_null(odb_modules_next(rows[i].text, &m));
		if (m.valid != rows[i].valid || (m.valid && (m.size != rows[i].size ||
							     m.addr != rows[i].addr)))
			fail_msg("row at line %d: valid %d size %llu addr %llx", rows[i].line,
				 m.valid, (unsigned long long)m.size,
				 (unsigned long long)m.addr);
		if (rows[i].name && (m.name_len != strlen(rows[i].name) ||
				     memcmp(m.name, rows[i].name, m.name_len)))
			fail_msg("row at line %d: name '%.*s'", rows[i].line,
				 (int)m.name_len, m.name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_modules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
