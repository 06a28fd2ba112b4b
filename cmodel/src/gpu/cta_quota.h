/* cta_quota.h: the `cke_quota` configuration value: a per-kernel cap on the
 * CTAs one SM holds, by kernel (entry) name.
 *
 * Form: `name:N[,name:N]...`, blanks allowed around names, numbers and
 * commas; a name is a PTX identifier ([A-Za-z_$%][A-Za-z0-9_$]*), N a
 * decimal integer in [1, CTA_QUOTA_MAX]; a name at most once.  The empty
 * text gives no quotas.  A kernel that is not named has no quota: it keeps
 * its occupancy limit T_max (reference 004 §2.6: a kernel without a quota
 * gets T_max).  A quota above T_max changes nothing, as resources still
 * decide what fits. */
#ifndef GPU_CTA_QUOTA_H
#define GPU_CTA_QUOTA_H

#define CTA_QUOTA_MAX 1024

/* NULL when `text` has the form above, else why not (a static string). */
const char *config_quota_check(const char *text);

/* Kernel `name`'s quota in `text` (which config_quota_check accepted), or
 * 0 when it has none. */
unsigned cta_quota_of(const char *text, const char *name);

#endif
