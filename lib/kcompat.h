/* SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause */
/*
 * The few kernel types and helpers that kmod/sigmsg.c uses, for building
 * that same file in userspace (libethereal.a, the unit tests).
 */
#ifndef ETHEREAL_KCOMPAT_H
#define ETHEREAL_KCOMPAT_H

#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define KCOMPAT_UNALIGNED_BE(bits)					\
static inline uint##bits##_t get_unaligned_be##bits(const void *p)	\
{									\
	uint##bits##_t v;						\
	memcpy(&v, p, sizeof(v));					\
	return be##bits##toh(v);					\
}									\
static inline void put_unaligned_be##bits(uint##bits##_t v, void *p)	\
{									\
	v = htobe##bits(v);						\
	memcpy(p, &v, sizeof(v));					\
}
KCOMPAT_UNALIGNED_BE(16)
KCOMPAT_UNALIGNED_BE(32)
KCOMPAT_UNALIGNED_BE(64)
#undef KCOMPAT_UNALIGNED_BE

#endif
