// SPDX-License-Identifier: GPL-2.0-or-later
/* What a class's event counts, for derived metrics (pp_profile.h). */
#include "config.h"

#include "events/opev.h"
#include "libpp/profile/pp_profile.h"

bool pp_class_counts(const struct pp_profile *p, size_t cls, const char *name)
{
	const char *event = p->classes[cls].t.event;

	return event && opev_counts_as(event, name);
}
