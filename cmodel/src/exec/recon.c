/* recon.c: the table of reconvergence models (recon.h), built from
 * EXEC_RECON_MODELS so that a model is added by its own file and one
 * line there. */
#include "exec/recon.h"

#define RECON_ENTRY(name) &recon_##name,
static const recon_ops_t *const models[] = { EXEC_RECON_MODELS(RECON_ENTRY) };
#undef RECON_ENTRY

#define RECON_NAME(name) #name,
const char *const recon_model_names[] = { EXEC_RECON_MODELS(RECON_NAME) NULL };
#undef RECON_NAME

const recon_ops_t *recon_model(unsigned v)
{
    return v < sizeof models / sizeof models[0] ? models[v] : models[0];
}
