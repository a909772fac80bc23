# SPDX-License-Identifier: GPL-2.0
# Flags shared by every userspace Makefile; TOP is the repository root.
CC ?= gcc
CFLAGS ?= -O2 -g
# Warnings are errors here; packagers building with another compiler turn
# that off with WERROR=0 (kmod/Makefile takes the same switch). LDFLAGS
# (CFLAGS' counterpart, e.g. -Wl,-z,relro) reaches every link.
WERROR ?= 1
override CFLAGS += -std=gnu11 -Wall -Wextra $(if $(filter 0,$(WERROR)),,-Werror)
override CPPFLAGS += -D_GNU_SOURCE -I$(TOP)/kmod/include/uapi -I$(TOP)/lib
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
# The daemon and the administrator's tool: rtcd, etherealctl.
SBINDIR ?= $(PREFIX)/sbin
LIBDIR ?= $(PREFIX)/lib
INCDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
LIBETHEREAL := $(TOP)/lib/libethereal.a
# For "sigmsg.h", the signaling wire format libethereal.a shares with the
# module: added only by its users, to keep the module's other headers out
# of userspace's include path.
SIGMSG_CPPFLAGS := -I$(TOP)/kmod
