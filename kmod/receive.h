/* SPDX-License-Identifier: GPL-2.0 */
/* receive.c: the packet path, a port's netfilter netdev ingress hook */
#ifndef _ETHEREAL_RECEIVE_H
#define _ETHEREAL_RECEIVE_H

struct nf_hook_state;
struct sk_buff;

unsigned int ethereal_ingress(void *priv, struct sk_buff *skb,
			      const struct nf_hook_state *state);

#endif /* _ETHEREAL_RECEIVE_H */
