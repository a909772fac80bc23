# SPDX-License-Identifier: GPL-2.0
# VERSION: `git describe` of the tree, a tag's leading "v" dropped; 0 outside
# a git checkout (a tarball), or as given (make VERSION=...). The top
# Makefile names the DKMS package with it; ctl/Makefile builds it into
# etherealctl (-V).
ifndef VERSION
VERSION := $(or $(shell git -C $(dir $(lastword $(MAKEFILE_LIST))) describe --tags --always --dirty 2>/dev/null | sed "s/^v//"),0)
endif
