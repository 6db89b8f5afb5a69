/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The energy sets' set-up at ops.init (power.bpf.h holds the sets and
 * what changes them): each set created empty, then every online CPU added
 * in the per-CPU pass.
 */
#ifndef LAVD_POWER_INIT_BPF_H
#define LAVD_POWER_INIT_BPF_H

#include "power.bpf.h"

/* A new, empty cpumask into @slot (replacing any). */
static __always_inline s32 put_mask(struct bpf_cpumask __kptr **slot)
{
	struct bpf_cpumask *m = bpf_cpumask_create();

	if (!m)
		return -ENOMEM;
	m = bpf_kptr_xchg(slot, m);
	if (m)
		bpf_cpumask_release(m);
	return 0;
}

/*
 * Creates the sets, empty; the per-CPU pass of ops.init then adds each
 * online CPU (energy_add_cpu): every online CPU starts active
 * (performance) until the first energy step.
 */
static __always_inline s32 energy_init(void)
{
	struct pwr_masks *pm = pwr();
	s32 err;

	if (!pm)
		return -ENOENT;
	err = put_mask(&pm->active);
	if (!err)
		err = put_mask(&pm->usable);
	if (!err)
		err = put_mask(&pm->ovf);
	if (!err)
		err = put_mask(&pm->big);
	WRITE_ONCE(nr_active_cpus, nr_order);
	WRITE_ONCE(all_usable, true);
	return err;
}

/*
 * An online CPU joins the active and usable sets, and the big set if it
 * is a big core. One pass over the CPUs (bpf_loop), not a loop over
 * LAVD_MAX_CPUS per set: that one cost the verifier ~140 000
 * instructions. Called under bpf_rcu_read_lock().
 */
static __always_inline void energy_add_cpu(u32 cpu)
{
	struct pwr_masks *pm = pwr();
	struct bpf_cpumask *act, *usable, *big;

	if (!pm || cpu >= LAVD_MAX_CPUS)
		return;
	barrier_var(cpu);
	if (cpu_dom[cpu] >= LAVD_MAX_DOMS)
		return;		/* offline */
	act = pm->active;
	usable = pm->usable;
	big = pm->big;
	if (act)
		bpf_cpumask_set_cpu(cpu, act);
	if (usable)
		bpf_cpumask_set_cpu(cpu, usable);
	if (big && cpu_big[cpu])
		bpf_cpumask_set_cpu(cpu, big);
}

#endif
