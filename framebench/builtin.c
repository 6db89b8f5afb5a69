// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shipped profiles, embedded into the binary at build time (the static
 * binary runs in an initramfs that has no repository files). The text is
 * framebench/profiles/NAME.profile verbatim, NUL-terminated; module.mk makes this object
 * depend on those files.
 */
#include "fbprofile.h"

#define FB_EMBED(sym, file)                                                  \
	__asm__(".section .rodata\n"                                         \
		".balign 16\n"                                               \
		".globl " #sym "\n"                                          \
		".hidden " #sym "\n" #sym ":\n"                              \
		".incbin \"" file "\"\n"                                     \
		".byte 0\n"                                                  \
		".previous\n");                                              \
	extern const char sym[] __attribute__((visibility("hidden")))

FB_EMBED(fb_prof_proton, "framebench/profiles/proton.profile");
FB_EMBED(fb_prof_unreal, "framebench/profiles/unreal.profile");
FB_EMBED(fb_prof_esports, "framebench/profiles/esports.profile");
FB_EMBED(fb_prof_strategy, "framebench/profiles/strategy.profile");
FB_EMBED(fb_prof_unity, "framebench/profiles/unity.profile");

const struct fb_builtin fb_builtins[] = {
	{ "proton", fb_prof_proton },
	{ "unreal", fb_prof_unreal },
	{ "esports", fb_prof_esports },
	{ "strategy", fb_prof_strategy },
	{ "unity", fb_prof_unity },
};
const size_t fb_nbuiltins = sizeof(fb_builtins) / sizeof(fb_builtins[0]);
