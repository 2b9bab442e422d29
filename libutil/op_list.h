/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intrusive circular doubly linked lists, as in the Linux kernel: embed a
 * struct op_list in the element, keep one as the head, and get back to the
 * element with op_list_entry().
 */
#ifndef OP_LIST_H
#define OP_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct op_list {
	struct op_list *next, *prev;
};

#define OP_LIST_INIT(name) { &(name), &(name) }

#define op_list_entry(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define op_list_for_each(pos, head) \
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

/* safe against removal of pos: tmp holds the next element */
#define op_list_for_each_safe(pos, tmp, head) \
	for ((pos) = (head)->next, (tmp) = (pos)->next; (pos) != (head); \
	     (pos) = (tmp), (tmp) = (pos)->next)

static inline void op_list_init(struct op_list *head)
{
	head->next = head;
	head->prev = head;
}

static inline bool op_list_empty(const struct op_list *head)
{
	return head->next == head;
}

static inline void op_list_insert_between(struct op_list *n,
					  struct op_list *prev,
					  struct op_list *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

/* add n right after head (front of the list) */
static inline void op_list_add(struct op_list *n, struct op_list *head)
{
	op_list_insert_between(n, head, head->next);
}

/* add n right before head (back of the list) */
static inline void op_list_add_tail(struct op_list *n, struct op_list *head)
{
	op_list_insert_between(n, head->prev, head);
}

/* unlink e and leave it pointing at itself */
static inline void op_list_del(struct op_list *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	op_list_init(e);
}

/* move e to the front of head */
static inline void op_list_move(struct op_list *e, struct op_list *head)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	op_list_add(e, head);
}

#endif
