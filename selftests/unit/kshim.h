/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel's types, list, bitmap and math helpers to run
 * the module's pure-logic files (kmod/wheel.c, kmod/admit.h) natively.
 * Force-included by the Makefile.
 */
#ifndef ETHEREAL_KSHIM_H
#define ETHEREAL_KSHIM_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;
typedef uint32_t u32;
#define U64_MAX UINT64_MAX
#define BITS_PER_LONG (8 * sizeof(long))
#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))

/* x86-64's divq raises #DE when the quotient does not fit: so does this. */
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	unsigned __int128 q;

	if (!c)
		abort();
	q = (unsigned __int128)a * b / c;
	if (q > U64_MAX)
		abort();
	return (u64)q;
}

static inline u64 div64_u64_rem(u64 a, u64 b, u64 *rem)
{
	*rem = a % b;
	return a / b;
}

static inline u64 mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * b) >> shift);
}

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD(name) struct list_head name = { &(name), &(name) }

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l->prev = l;
}

static inline void __list_add(struct list_head *n, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
}

static inline void list_del_init(struct list_head *e)
{
	list_del(e);
	INIT_LIST_HEAD(e);
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

static inline void __list_splice(struct list_head *list, struct list_head *prev,
				 struct list_head *next)
{
	list->next->prev = prev;
	prev->next = list->next;
	list->prev->next = next;
	next->prev = list->prev;
}

static inline void list_splice_init(struct list_head *list, struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head, head->next);
		INIT_LIST_HEAD(list);
	}
}

static inline void list_splice_tail_init(struct list_head *list, struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head->prev, head);
		INIT_LIST_HEAD(list);
	}
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) list_entry((ptr)->next, type, member)
#define list_for_each_entry(pos, head, member)					\
	for (pos = list_entry((head)->next, __typeof__(*pos), member);		\
	     &pos->member != (head);						\
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))
#define list_for_each_entry_safe(pos, n, head, member)				\
	for (pos = list_entry((head)->next, __typeof__(*pos), member),		\
	     n = list_entry(pos->member.next, __typeof__(*pos), member);	\
	     &pos->member != (head);						\
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

static inline void bitmap_zero(unsigned long *b, unsigned int bits)
{
	memset(b, 0, (bits + BITS_PER_LONG - 1) / BITS_PER_LONG * sizeof(long));
}

static inline void __set_bit(unsigned int nr, unsigned long *b)
{
	b[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

static inline void __clear_bit(unsigned int nr, unsigned long *b)
{
	b[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}

static inline unsigned int find_next_bit(const unsigned long *b, unsigned int size,
					 unsigned int off)
{
	for (; off < size; off++)
		if (b[off / BITS_PER_LONG] & (1UL << (off % BITS_PER_LONG)))
			return off;
	return size;
}

static inline unsigned int find_first_bit(const unsigned long *b, unsigned int size)
{
	return find_next_bit(b, size, 0);
}

#endif
