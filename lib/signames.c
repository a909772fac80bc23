// SPDX-License-Identifier: LGPL-2.1-or-later OR BSD-2-Clause
/*
 * Names of signaling's errors, reasons and message types, for people and
 * logs: userspace only (the module counts, it does not print them).
 */
#include "signames.h"

const char *ethereal_sig_err_name(enum ethereal_sig_err err)
{
	switch (err) {
	case ETHEREAL_SIG_OK:
		return "ok";
	case ETHEREAL_SIG_E_SHORT:
		return "too short";
	case ETHEREAL_SIG_E_LONG:
		return "too long";
	case ETHEREAL_SIG_E_VERSION:
		return "unknown version";
	case ETHEREAL_SIG_E_TYPE:
		return "unknown type";
	case ETHEREAL_SIG_E_ATTR:
		return "bad attribute";
	case ETHEREAL_SIG_E_MISSING:
		return "required attribute missing";
	}
	return "unknown error";
}

/* Each reason's name, for logs and rtcd's answers, and what it means to people. */
static const struct {
	const char *name;
	const char *text;
} ethereal_sig_reasons[__ETHEREAL_SIG_R_MAX] = {
	[ETHEREAL_SIG_R_NONE] = { "none", "no reason given" },
	[ETHEREAL_SIG_R_BANDWIDTH] = { "bandwidth",
		"not enough real-time bandwidth on the path" },
	[ETHEREAL_SIG_R_BUFFER] = { "buffer", "not enough real-time buffer on the path" },
	[ETHEREAL_SIG_R_CONNS] = { "connections",
		"too many connections on a port of the path" },
	[ETHEREAL_SIG_R_NO_ROUTE] = { "no-route",
		"the switches do not know the receiver (no ARP answer, or it is on our link)" },
	[ETHEREAL_SIG_R_ID_IN_USE] = { "id-in-use", "the connection ID is in use on the link" },
	[ETHEREAL_SIG_R_NO_ID] = { "no-id", "no free connection ID on a link of the path" },
	[ETHEREAL_SIG_R_INVALID] = { "invalid",
		"the switch refused the QoS or the ID as invalid" },
	[ETHEREAL_SIG_R_TIMEOUT] = { "timeout", "a switch of the path did not answer" },
	[ETHEREAL_SIG_R_LINK_DOWN] = { "link-down", "a link of the path went down" },
	[ETHEREAL_SIG_R_EXPIRED] = { "expired", "the path expired (not refreshed in time)" },
	[ETHEREAL_SIG_R_REQUESTED] = { "requested", "torn down on request" },
	[ETHEREAL_SIG_R_BUSY] = { "busy", "the switch is busy with other setups: try again" },
	[ETHEREAL_SIG_R_NO_MEMORY] = { "no-memory", "a switch ran out of memory" },
	[ETHEREAL_SIG_R_REMOVED] = { "removed", "removed by the operator of a switch" },
	[ETHEREAL_SIG_R_QUOTA] = { "quota",
		"the host's quota of connections or bandwidth on its switch port is used up" },
	[ETHEREAL_SIG_R_DELAY] = { "delay",
		"the path cannot bound the delay within the maximum asked for" },
};

const char *ethereal_sig_reason_name(unsigned int reason)
{
	/* A code without a name yet is still answered with something. */
	return reason <= ETHEREAL_SIG_R_MAX && ethereal_sig_reasons[reason].name ?
	       ethereal_sig_reasons[reason].name : "unknown";
}

const char *ethereal_sig_reason_text(unsigned int reason)
{
	return reason <= ETHEREAL_SIG_R_MAX && ethereal_sig_reasons[reason].text ?
	       ethereal_sig_reasons[reason].text : "a reason this version does not know";
}

static const char *const ethereal_sig_types[__ETHEREAL_SIG_TYPE_MAX] = {
	[ETHEREAL_SIG_SETUP] = "setup",
	[ETHEREAL_SIG_ACCEPT] = "accept",
	[ETHEREAL_SIG_REJECT] = "reject",
	[ETHEREAL_SIG_TEARDOWN] = "teardown",
	[ETHEREAL_SIG_REFRESH] = "refresh",
	[ETHEREAL_SIG_HELLO] = "hello",
	[ETHEREAL_SIG_PROCEEDING] = "proceeding",
};

const char *ethereal_sig_type_name(unsigned int type)
{
	return type >= ETHEREAL_SIG_SETUP && type < __ETHEREAL_SIG_TYPE_MAX &&
	       ethereal_sig_types[type] ? ethereal_sig_types[type] : "unknown";
}
