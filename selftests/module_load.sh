#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ethereal.ko is built for this kernel, loads and unloads cleanly, repeatedly.
# timeout=120
. "$(dirname "$0")/lib/ktap.sh"

. "$(dirname "$0")/lib/ethereal.sh"
ktap_begin 4

ktap_check "ethereal.ko built for $(uname -r)" \
	sh -c "modinfo -F vermagic $ETHEREAL_KO | grep -q '^$(uname -r) '"
ktap_check "load ethereal.ko" ethereal_load
ktap_check "module listed" sh -c "lsmod | grep -q '^ethereal '"

ok=0
for i in 1 2 3 4 5; do
	ethereal_unload && ethereal_load || { ok=1; break; }
done
ethereal_unload || ok=1
ktap_result "unload and reload five times" $ok
ktap_end
