// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Encoding events through libpfm4, the only file that calls it: the
 * context (pfm_initialize() and the machine's core PMU), opev_encode()
 * and opev_default_event(), and the event listing for ophelp.
 *
 * libpfm4 resolves names to perf_event_attr; this file then decides how
 * OProfile's sample-file header describes the event (opev.h tells the
 * rules): the generic names come from opev_generic.c, the cpu types from
 * opev_cpu.c.  libpfm4 allocates only inside pfm_initialize() here (no
 * fstr is asked for), so every allocation failure we can see is ours.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>

#include "events/opev_int.h"
#include "libutil/op_alloc.h"

/* one successful libpfm4 encoding */
struct pfm_result {
	uint32_t type;			/* perf_event_attr */
	uint64_t config, config1, config2;
	char pmu[OPEV_NAME_MAX];	/* libpfm4 PMU of the event */
	char event[OPEV_NAME_MAX];	/* libpfm4's event name */
	const char *desc;		/* libpfm4's, static */
};

/* longest string we hand to libpfm4: "pmu::EVENT:UMASK" */
#define PFM_STR_MAX (3 * OPEV_NAME_MAX + 8)

/* ---- the context ---- */

/*
 * The core PMU that decides the cpu type: one OProfile has a type for,
 * else one newer than OProfile, else libpfm4's generic Intel one
 * (ix86arch); without any, the type comes from cpuid.
 */
static void detect_cpu(struct opev_ctx *ctx)
{
	enum { MAPPED, UNMAPPED, ARCH, NR_RANKS };
	char found[NR_RANKS][OPEV_NAME_MAX] = { "", "", "" };
	enum opev_style style;
	uint32_t type;
	pfm_pmu_t pmu;
	bool known;
	int rank;

	pfm_for_all_pmus(pmu) {
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(pmu, &info) != PFM_SUCCESS ||
		    !info.is_present || info.type != PFM_PMU_TYPE_CORE ||
		    !info.name)
			continue;
		if (!opev_cpu_of_pmu(info.name, &type, &style))
			rank = UNMAPPED;
		else if (type == OPEV_CPU_ARCH_PERFMON)
			rank = ARCH;
		else
			rank = MAPPED;
		if (!found[rank][0])
			opev_copy(found[rank], OPEV_NAME_MAX, info.name);
	}
	for (rank = 0; rank < NR_RANKS; rank++) {
		if (!found[rank][0])
			continue;
		opev_copy(ctx->core_pmu, sizeof(ctx->core_pmu), found[rank]);
		if (rank == UNMAPPED)
			known = opev_cpu_of_new_pmu(found[rank], &ctx->cpu_type,
						    &ctx->style);
		else
			known = opev_cpu_of_pmu(found[rank], &ctx->cpu_type,
						&ctx->style);
		if (known)
			return;
		break;
	}
	ctx->cpu_type = opev_cpu_fallback(&ctx->style);
}

struct opev_ctx *opev_ctx_new(int *err)
{
	struct opev_ctx *ctx;
	int ret = 0, pfm;

	ctx = op_calloc(1, sizeof(*ctx));
	if (!ctx) {
		ret = -ENOMEM;
		goto out;
	}
	pfm = pfm_initialize();
	if (pfm != PFM_SUCCESS) {
		ret = pfm == PFM_ERR_NOMEM ? -ENOMEM : OPEV_ERR_PFM_INIT;
		free(ctx);
		ctx = NULL;
		goto out;
	}
	detect_cpu(ctx);
out:
	if (err)
		*err = ret;
	return ctx;
}

/* libpfm4 stays initialised: its state is process-wide, others may use it */
void opev_ctx_free(struct opev_ctx *ctx)
{
	free(ctx);
}

uint32_t opev_ctx_cpu_type(const struct opev_ctx *ctx)
{
	return ctx ? ctx->cpu_type : OPEV_CPU_TIMER;
}

/* ---- one libpfm4 encoding ---- */

static int pfm_encode(const char *str, const struct opev_event *ev,
		      struct pfm_result *res)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t einfo;
	pfm_pmu_info_t pinfo;
	int plm = 0, ret;

	if (!ev->exclude_kernel)
		plm |= PFM_PLM0;
	if (!ev->exclude_user)
		plm |= PFM_PLM3;
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(str, plm, PFM_OS_PERF_EVENT, &arg);
	if (ret != PFM_SUCCESS)
		return ret;
	memset(&einfo, 0, sizeof(einfo));
	einfo.size = sizeof(einfo);
	memset(&pinfo, 0, sizeof(pinfo));
	pinfo.size = sizeof(pinfo);
	if (pfm_get_event_info(arg.idx, PFM_OS_PERF_EVENT, &einfo) !=
	    PFM_SUCCESS || pfm_get_pmu_info(einfo.pmu, &pinfo) != PFM_SUCCESS)
		return PFM_ERR_NOTFOUND;
	res->type = attr.type;
	res->config = attr.config;
	res->config1 = attr.config1;
	res->config2 = attr.config2;
	opev_copy(res->pmu, sizeof(res->pmu), pinfo.name ? pinfo.name : "?");
	opev_copy(res->event, sizeof(res->event),
		  einfo.name ? einfo.name : "?");
	res->desc = einfo.desc;
	return 0;
}

/*
 * Try names in order as events of the core PMU; the index of the first
 * that encodes, or -1.
 */
static int pfm_encode_first(const struct opev_ctx *ctx,
			    const char *const *names,
			    const struct opev_event *ev, struct pfm_result *res)
{
	char str[PFM_STR_MAX];
	int i;

	if (!ctx->core_pmu[0] || !names)
		return -1;
	for (i = 0; names[i]; i++) {
		int n = snprintf(str, sizeof(str), "%s::%s", ctx->core_pmu,
				 names[i]);

		if (n > 0 && (size_t)n < sizeof(str) &&
		    !pfm_encode(str, ev, res))
			return i;
	}
	return -1;
}

/*
 * Encode str as an event of the core PMU if it has one by that name, else
 * of whichever PMU libpfm4 finds first (perf's generic PMU, uncore...).
 * libpfm4 leaves deprecated PMUs (amd64_fam17h) out of unqualified
 * lookups, and two PMUs may share a name: the core PMU's is the one
 * OProfile means.  On failure, the error that says most.
 */
static int pfm_encode_core_first(const struct opev_ctx *ctx, const char *str,
				 const struct opev_event *ev,
				 struct pfm_result *res)
{
	char qualified[PFM_STR_MAX];
	int core = PFM_ERR_NOTFOUND, any, n;

	if (ctx->core_pmu[0]) {
		n = snprintf(qualified, sizeof(qualified), "%s::%s",
			     ctx->core_pmu, str);
		if (n > 0 && (size_t)n < sizeof(qualified))
			core = pfm_encode(qualified, ev, res);
		if (!core)
			return 0;
	}
	any = pfm_encode(str, ev, res);
	return any == PFM_ERR_NOTFOUND ? core : any;
}

/* pfm_find_event() with the same preference */
static int pfm_find_core_first(const struct opev_ctx *ctx, const char *event)
{
	char qualified[PFM_STR_MAX];
	int n, idx;

	if (ctx->core_pmu[0]) {
		n = snprintf(qualified, sizeof(qualified), "%s::%s",
			     ctx->core_pmu, event);
		if (n > 0 && (size_t)n < sizeof(qualified)) {
			idx = pfm_find_event(qualified);
			if (idx >= 0)
				return idx;
		}
	}
	return pfm_find_event(event);
}

/* ---- numeric unit masks ---- */

/*
 * The name of event's unit mask whose code is value, in name.  Returns
 * 0; 1 when the event has no unit masks at all; a PFM_ERR_* when the
 * event is unknown; PFM_ERR_UMASK when no unit mask matches, with the
 * valid ones listed in valid.
 */
static int umask_by_value(const struct opev_ctx *ctx, const char *event,
			  uint64_t value, char *name, size_t name_size,
			  char *valid, size_t valid_size)
{
	pfm_event_info_t einfo;
	size_t used = 0;
	int idx, i, nr = 0;

	valid[0] = '\0';
	idx = pfm_find_core_first(ctx, event);
	if (idx < 0)
		return idx;
	memset(&einfo, 0, sizeof(einfo));
	einfo.size = sizeof(einfo);
	if (pfm_get_event_info(idx, PFM_OS_NONE, &einfo) != PFM_SUCCESS)
		return PFM_ERR_NOTFOUND;
	for (i = 0; i < einfo.nattrs; i++) {
		pfm_event_attr_info_t ainfo;
		int n;

		memset(&ainfo, 0, sizeof(ainfo));
		ainfo.size = sizeof(ainfo);
		if (pfm_get_event_attr_info(idx, i, PFM_OS_NONE, &ainfo) !=
		    PFM_SUCCESS || ainfo.type != PFM_ATTR_UMASK || !ainfo.name)
			continue;
		nr++;
		if (ainfo.code == value) {
			opev_copy(name, name_size, ainfo.name);
			return 0;
		}
		n = snprintf(valid + used, valid_size - used, "%s%s=0x%llx",
			     used ? " " : "", ainfo.name,
			     (unsigned long long)ainfo.code);
		if (n > 0)
			used = (size_t)n < valid_size - used ? used + (size_t)n
							     : valid_size - 1;
	}
	return nr ? PFM_ERR_UMASK : 1;
}

/* ---- errors ---- */

static int pfm_error(int pfm, const struct opev_spec *spec, const char *um,
		     struct op_err *err)
{
	switch (pfm) {
	case PFM_ERR_NOMEM:
		op_err_set(err, "out of memory encoding event '%s'",
			   spec->name);
		return -ENOMEM;
	case PFM_ERR_NOINIT:
		op_err_set(err, "cannot encode event '%s': %s", spec->name,
			   pfm_strerror(pfm));
		return OPEV_ERR_PFM_INIT;
	case PFM_ERR_UMASK:
	case PFM_ERR_ATTR:
	case PFM_ERR_ATTR_VAL:
	case PFM_ERR_ATTR_SET:
	case PFM_ERR_FEATCOMB:
		if (um && *um)
			op_err_set(err, "bad unit mask '%s' for event '%s': %s",
				   um, spec->name, pfm_strerror(pfm));
		else
			op_err_set(err, "event '%s' needs a unit mask: %s",
				   spec->name, pfm_strerror(pfm));
		return OPEV_ERR_BAD_UNIT_MASK;
	default:
		op_err_set(err, "unknown event '%s': %s", spec->name,
			   pfm_strerror(pfm));
		return OPEV_ERR_UNKNOWN_EVENT;
	}
}

static int check_unit_mask(const struct opev_spec *spec, struct op_err *err)
{
	char q[OPEV_QUOTE_SIZE];
	size_t len = strnlen(spec->um_name, sizeof(spec->um_name)), bad;

	if (!len || !opev_um_name_check(spec->um_name, len, &bad))
		return 0;
	op_err_set(err, "bad unit mask '%s' for event '%s'",
		   opev_quote(q, sizeof(q), spec->um_name, len), spec->name);
	return OPEV_ERR_BAD_UNIT_MASK;
}

static int need_cpu_type(const struct opev_ctx *ctx, struct opev_event *ev,
			 struct op_err *err)
{
	if (ctx->cpu_type != OPEV_CPU_TIMER) {
		ev->op_cpu_type = ctx->cpu_type;
		return 0;
	}
	op_err_set(err, "cannot record hardware event '%s': no OProfile cpu "
		   "type describes this machine's PMU", ev->name);
	return OPEV_ERR_UNKNOWN_EVENT;
}

/* ---- the kinds of events ---- */

static int encode_generic_hw(const struct opev_ctx *ctx,
			     const struct opev_generic *g, uint64_t count,
			     struct opev_event *ev, struct op_err *err)
{
	struct pfm_result res;
	char what[256];
	int ret, n;

	ret = need_cpu_type(ctx, ev, err);
	if (ret)
		return ret;
	ev->kind = OPEV_HARDWARE;
	ev->attr_type = g->type;
	ev->attr_config = g->config;
	opev_copy(ev->pmu_name, sizeof(ev->pmu_name), g->pfm_name);
	ret = opev_event_set_period(ev, count, err);
	if (ret)
		return ret;
	if (pfm_encode_first(ctx, g->equiv, ev, &res) >= 0) {
		opev_event_set_codes(ev, ctx->style, res.config);
		n = snprintf(what, sizeof(what), "perf generic %s, counted "
			     "as %s::%s (event 0x%x, unit mask 0x%x)", g->desc,
			     res.pmu, res.event, ev->op_event,
			     ev->op_unit_mask);
	} else {
		n = snprintf(what, sizeof(what), "perf generic %s (event code "
			     "0: no equivalent %s event known)", g->desc,
			     ctx->core_pmu[0] ? ctx->core_pmu : "PMU");
	}
	opev_event_describe(ev, n > 0 ? what : g->desc, NULL);
	return 0;
}

static int encode_generic(const struct opev_ctx *ctx,
			  const struct opev_generic *g,
			  const struct opev_spec *spec, struct opev_event *ev,
			  struct op_err *err)
{
	if (spec->um_name[0] || (spec->has_unit_mask && spec->unit_mask)) {
		op_err_set(err, "bad unit mask for event '%s': perf's generic "
			   "events have none", spec->name);
		return OPEV_ERR_BAD_UNIT_MASK;
	}
	if (g->is_clock)
		return opev_event_clock(ev, g, spec->count, err);
	if (!ctx) {
		op_err_set(err, "cannot encode event '%s': libpfm4 is not "
			   "initialised", spec->name);
		return OPEV_ERR_PFM_INIT;
	}
	return encode_generic_hw(ctx, g, spec->count, ev, err);
}

/* a PMU event: codes from the raw config, libpfm4's description */
static int encode_raw(const struct opev_ctx *ctx, const struct pfm_result *res,
		      const char *um, const struct opev_spec *spec,
		      struct opev_event *ev, struct op_err *err)
{
	enum opev_style style = OPEV_STYLE_PLAIN;
	char what[256];
	int ret, n;

	ret = need_cpu_type(ctx, ev, err);
	if (ret)
		return ret;
	ev->kind = OPEV_HARDWARE;
	ev->attr_type = res->type;
	ev->attr_config = res->config;
	ev->attr_config1 = res->config1;
	ev->attr_config2 = res->config2;
	n = snprintf(ev->pmu_name, sizeof(ev->pmu_name), "%s::%s%s%s", res->pmu,
		     res->event, um[0] ? ":" : "", um);
	if (n < 0)
		ev->pmu_name[0] = '\0';
	ret = opev_event_set_period(ev, spec->count, err);
	if (ret)
		return ret;
	/* the core PMU's raw codes are what OProfile's events files list */
	if (res->type == OPEV_TYPE_RAW && (!strcmp(res->pmu, ctx->core_pmu) ||
					   !strcmp(res->pmu, "perf_raw")))
		style = ctx->style;
	if (res->type == OPEV_TYPE_HW_CACHE)
		ev->op_event = ev->op_unit_mask = 0;
	else
		opev_event_set_codes(ev, style, res->config);
	n = snprintf(what, sizeof(what), "%s (event 0x%x, unit mask 0x%x)",
		     ev->pmu_name, ev->op_event, ev->op_unit_mask);
	opev_event_describe(ev, n > 0 ? what : ev->pmu_name, res->desc);
	return 0;
}

/* what libpfm4 gave: sort by perf type */
static int encode_result(const struct opev_ctx *ctx,
			 const struct pfm_result *res, const char *um,
			 const struct opev_spec *spec, struct opev_event *ev,
			 struct op_err *err)
{
	const struct opev_generic *g = opev_generic_by_config(res->type,
							      res->config);

	switch (res->type) {
	case OPEV_TYPE_SOFTWARE:
		if (g && g->is_clock)
			return opev_event_clock(ev, g, spec->count, err);
		op_err_set(err, "unknown event '%s': perf software event %s "
			   "cannot be recorded in OProfile sample files; only "
			   "cpu-clock and task-clock", spec->name, res->event);
		return OPEV_ERR_UNKNOWN_EVENT;
	case OPEV_TYPE_TRACEPOINT:
		op_err_set(err, "unknown event '%s': tracepoints cannot be "
			   "recorded in OProfile sample files", spec->name);
		return OPEV_ERR_UNKNOWN_EVENT;
	case OPEV_TYPE_HARDWARE:
		if (g)
			return encode_generic_hw(ctx, g, spec->count, ev, err);
		break;
	default:
		break;
	}
	return encode_raw(ctx, res, um, spec, ev, err);
}

/*
 * The libpfm4 string for spec: "NAME", "NAME:UMASK", or for a numeric
 * unit mask the name of the unit mask with that code.  um gets the
 * unit mask name used ("" for none).
 */
static int pfm_string(const struct opev_ctx *ctx, const struct opev_spec *spec,
		      char *str, size_t size, char *um, size_t um_size,
		      struct op_err *err)
{
	char valid[200];
	int ret, n;

	opev_copy(um, um_size, spec->um_name);
	if (!um[0] && spec->has_unit_mask) {
		ret = umask_by_value(ctx, spec->name, spec->unit_mask, um,
				     um_size, valid, sizeof(valid));
		if (ret == 1 && spec->unit_mask == 0)
			ret = 0;	/* no unit masks: 0 is the only one */
		if (ret == PFM_ERR_UMASK || ret == 1) {
			op_err_set(err, "bad unit mask 0x%llx for event '%s': "
				   "%s%s", (unsigned long long)spec->unit_mask,
				   spec->name, ret == 1 ? "it has no unit masks"
							: "valid are ", valid);
			return OPEV_ERR_BAD_UNIT_MASK;
		}
		if (ret)
			return pfm_error(ret, spec, NULL, err);
	}
	n = snprintf(str, size, "%s%s%s", spec->name, um[0] ? ":" : "", um);
	if (n < 0 || (size_t)n >= size)
		return pfm_error(PFM_ERR_NOTFOUND, spec, um, err);
	return 0;
}

static int encode_pmu(const struct opev_ctx *ctx, const struct opev_spec *spec,
		      struct opev_event *ev, struct op_err *err)
{
	char str[PFM_STR_MAX], um[OPEV_NAME_MAX];
	const char *const *alias = NULL;
	struct pfm_result res;
	int ret;

	ret = check_unit_mask(spec, err);
	if (ret)
		return ret;
	if (!spec->um_name[0] && !(spec->has_unit_mask && spec->unit_mask))
		alias = opev_generic_alias(spec->name);
	um[0] = '\0';
	if (pfm_encode_first(ctx, alias, ev, &res) >= 0)
		return encode_raw(ctx, &res, um, spec, ev, err);
	ret = pfm_string(ctx, spec, str, sizeof(str), um, sizeof(um), err);
	if (ret)
		return ret;
	ret = pfm_encode_core_first(ctx, str, ev, &res);
	if (ret)
		return pfm_error(ret, spec, um, err);
	return encode_result(ctx, &res, um, spec, ev, err);
}

int opev_encode(const struct opev_ctx *ctx, const struct opev_spec *spec,
		struct opev_event *ev, struct op_err *err)
{
	const struct opev_generic *g;
	int ret;

	if (!spec || !ev)
		return -EINVAL;
	ret = opev_event_start(ev, spec, err);
	if (ret)
		return ret;
	g = opev_generic_by_name(ev->name);
	if (g) {
		ret = encode_generic(ctx, g, spec, ev, err);
	} else if (!ctx) {
		op_err_set(err, "cannot encode event '%s': libpfm4 is not "
			   "initialised", spec->name);
		return OPEV_ERR_PFM_INIT;
	} else {
		ret = encode_pmu(ctx, spec, ev, err);
	}
	/*
	 * A written 0 is no period (its kind, known now, names the minimum);
	 * the default comes from leaving the count out, never in silence
	 */
	if (!ret && spec->has_count && !spec->count)
		ret = opev_event_refuse_zero(ev, err);
	return ret;
}

int opev_default_event(const struct opev_ctx *ctx, struct opev_event *ev,
		       struct op_err *err)
{
	struct opev_spec spec = { .kernel = true, .user = true };
	const char *name;
	struct op_err why;
	int ret;

	if (!ctx || !ev)
		return -EINVAL;
	name = opev_cpu_default_name(ctx->cpu_type);
	if (!name) {
		op_err_set(err, "no default event for cpu type %s",
			   opev_cpu_name(ctx->cpu_type));
		return OPEV_ERR_NO_DEFAULT;
	}
	opev_copy(spec.name, sizeof(spec.name), name);
	why.msg[0] = '\0';
	ret = opev_encode(ctx, &spec, ev, &why);
	if (ret == OPEV_ERR_UNKNOWN_EVENT || ret == OPEV_ERR_BAD_UNIT_MASK) {
		op_err_set(err, "no default event for cpu type %s (core PMU "
			   "%s): %s", opev_cpu_name(ctx->cpu_type),
			   ctx->core_pmu[0] ? ctx->core_pmu : "none", why.msg);
		return OPEV_ERR_NO_DEFAULT;
	}
	if (ret)
		op_err_set(err, "%s", why.msg);
	return ret;
}

/* ---- listing ---- */

struct um_arrays {
	const char **names;
	const char **descs;
	uint64_t *codes;
	size_t cap;
};

static int um_arrays_grow(struct um_arrays *a, size_t nr)
{
	const char **names, **descs;
	uint64_t *codes;

	if (nr <= a->cap)
		return 0;
	names = op_reallocarray(a->names, nr, sizeof(*names));
	if (!names)
		return -ENOMEM;
	a->names = names;
	descs = op_reallocarray(a->descs, nr, sizeof(*descs));
	if (!descs)
		return -ENOMEM;
	a->descs = descs;
	codes = op_reallocarray(a->codes, nr, sizeof(*codes));
	if (!codes)
		return -ENOMEM;
	a->codes = codes;
	a->cap = nr;
	return 0;
}

static void um_arrays_release(struct um_arrays *a)
{
	free(a->names);
	free(a->descs);
	free(a->codes);
	memset(a, 0, sizeof(*a));
}

static int list_event(const char *pmu, int idx, struct um_arrays *a,
		      opev_info_fn fn, void *data)
{
	pfm_event_info_t einfo;
	struct opev_info info;
	size_t nr = 0;
	int i, ret;

	memset(&einfo, 0, sizeof(einfo));
	einfo.size = sizeof(einfo);
	if (pfm_get_event_info(idx, PFM_OS_NONE, &einfo) != PFM_SUCCESS ||
	    !einfo.name)
		return 0;
	ret = um_arrays_grow(a, einfo.nattrs > 0 ? (size_t)einfo.nattrs : 1);
	if (ret)
		return ret;
	for (i = 0; i < einfo.nattrs; i++) {
		pfm_event_attr_info_t ainfo;

		memset(&ainfo, 0, sizeof(ainfo));
		ainfo.size = sizeof(ainfo);
		if (pfm_get_event_attr_info(idx, i, PFM_OS_NONE, &ainfo) !=
		    PFM_SUCCESS || ainfo.type != PFM_ATTR_UMASK || !ainfo.name)
			continue;
		a->names[nr] = ainfo.name;
		a->descs[nr] = ainfo.desc ? ainfo.desc : "";
		a->codes[nr] = ainfo.code;
		nr++;
	}
	memset(&info, 0, sizeof(info));
	info.pmu = pmu;
	info.name = einfo.name;
	info.desc = einfo.desc ? einfo.desc : "";
	info.code = einfo.code;
	info.nr_unit_masks = nr;
	info.um_names = a->names;
	info.um_descs = a->descs;
	info.um_codes = a->codes;
	return fn(&info, data);
}

int opev_for_each_event(const struct opev_ctx *ctx, opev_info_fn fn,
			void *data)
{
	struct um_arrays a = { 0 };
	pfm_pmu_t pmu;
	int ret = 0;

	if (!ctx)
		return OPEV_ERR_PFM_INIT;
	if (!fn)
		return -EINVAL;
	pfm_for_all_pmus(pmu) {
		pfm_pmu_info_t pinfo;
		int idx;

		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(pmu, &pinfo) != PFM_SUCCESS ||
		    !pinfo.is_present || !pinfo.name)
			continue;
		for (idx = pinfo.first_event; idx >= 0 && !ret;
		     idx = pfm_get_event_next(idx))
			ret = list_event(pinfo.name, idx, &a, fn, data);
		if (ret)
			break;
	}
	um_arrays_release(&a);
	return ret;
}
