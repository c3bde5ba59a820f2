/* The version and the build: what configure found (config.h's SHOAL_BUILD_*), the UCX
 * and PMIx headers it compiled against, and the UCX and PMIx libraries loaded now,
 * which may differ. Asking a library its version starts nothing. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "shoal_info.h"

#include <string.h>

#include <pmix.h>

#include "shoal_transport.h"

#include "shmem.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

/* The directories, from make's variables (tools/Makefile.am). */
static const struct {
    const char *key, *dir;
} dirs[] = {
    {"prefix", SHOAL_INFO_PREFIX}, {"bindir", SHOAL_INFO_BINDIR},
    {"libdir", SHOAL_INFO_LIBDIR}, {"includedir", SHOAL_INFO_INCLUDEDIR},
    {"mandir", SHOAL_INFO_MANDIR},
};

void shoal_info_version_print(FILE *f, int parsable)
{
    if (parsable) {
        shoal_info_kv(f, "version", "%s", PACKAGE_VERSION);
        shoal_info_kv(f, "openshmem", "%d.%d", SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION);
        shoal_info_kv(f, "vendor", "%s", SHMEM_VENDOR_STRING);
        return;
    }
    fprintf(f, "Shoal %s (OpenSHMEM %d.%d)\n", PACKAGE_VERSION, SHMEM_MAJOR_VERSION,
            SHMEM_MINOR_VERSION);
}

static void dirs_print(FILE *f, int all, int parsable)
{
    size_t i;

    for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && (all || i == 0); i++) {
        if (parsable)
            shoal_info_kv(f, "path", "%s:%s", dirs[i].key, dirs[i].dir);
        else
            shoal_info_line(f, dirs[i].key, "%s", dirs[i].dir);
    }
}

static const char *or_none(const char *s)
{
    return s[0] != '\0' ? s : "(none)";
}

/* The part of PMIx_Get_version() before " (PMIx Standard: ...)". */
static void pmix_loaded(char *buf, size_t len)
{
    const char *v = PMIx_Get_version();

    snprintf(buf, len, "%.*s", (int)strcspn(v, "("), v);
    len = strlen(buf);
    while (len > 0 && buf[len - 1] == ' ')
        buf[--len] = '\0';
}

static void cuda_print(FILE *f, int all, int parsable)
{
    if (parsable) {
        shoal_info_kv(f, "cuda", "gpu_library:%s", SHOAL_BUILD_HAVE_CUDA ? "yes" : "no");
        if (!SHOAL_BUILD_HAVE_CUDA) {
            shoal_info_kv(f, "cuda", "why_not:%s", SHOAL_BUILD_CUDA_WHY);
            return;
        }
        shoal_info_kv(f, "cuda", "nvcc:%s", SHOAL_BUILD_NVCC);
        shoal_info_kv(f, "cuda", "nvcc_version:%s", SHOAL_BUILD_NVCC_VERSION);
        shoal_info_kv(f, "cuda", "arch:%s", SHOAL_BUILD_CUDA_ARCH);
        shoal_info_kv(f, "cuda", "arch_flags:%s", SHOAL_BUILD_CUDA_ARCH_FLAGS);
        shoal_info_kv(f, "cuda", "gpu_heap_bytes:%zu",
                      shoal_info_settings_values()->gpu_symmetric_size);
        return;
    }
    if (!SHOAL_BUILD_HAVE_CUDA) {
        shoal_info_line(f, "CUDA", "no GPU library (%s)", SHOAL_BUILD_CUDA_WHY);
        return;
    }
    shoal_info_line(f, "CUDA", "GPU library built by nvcc %s for compute capability %s",
                    SHOAL_BUILD_NVCC_VERSION, SHOAL_BUILD_CUDA_ARCH);
    /* What nvshmem_malloc has, as shmem_init would read it here. */
    if (shoal_info_settings_values()->gpu_symmetric_size > 0)
        shoal_info_line(f, "GPU heap",
                        "%zu bytes per PE in GPU memory (cudaMalloc, "
                        "SHOAL_GPU_SYMMETRIC_SIZE); same-node PEs' mapped by CUDA IPC",
                        shoal_info_settings_values()->gpu_symmetric_size);
    else
        shoal_info_line(f, "GPU heap",
                        "none (SHOAL_GPU_SYMMETRIC_SIZE is 0): nvshmem_malloc "
                        "allocates in the host heap");
    if (all)
        shoal_info_line(f, "nvcc", "%s %s", SHOAL_BUILD_NVCC, SHOAL_BUILD_CUDA_ARCH_FLAGS);
}

void shoal_info_build_print(FILE *f, int all, int parsable)
{
    const char *ucx_built, *ucx_loaded;
    int ucx_differs;
    char pmix[128];

    shoal_ucx_component.versions(&ucx_built, &ucx_loaded);
    ucx_differs = strcmp(ucx_loaded, ucx_built) != 0;

    pmix_loaded(pmix, sizeof(pmix));
    if (parsable) {
        dirs_print(f, 1, 1);
        shoal_info_kv(f, "build", "cc:%s", SHOAL_BUILD_CC);
        shoal_info_kv(f, "build", "cc_version:%s", SHOAL_BUILD_CC_VERSION);
        shoal_info_kv(f, "build", "cflags:%s", SHOAL_BUILD_CFLAGS);
        shoal_info_kv(f, "build", "cppflags:%s", SHOAL_BUILD_CPPFLAGS);
        shoal_info_kv(f, "build", "ldflags:%s", SHOAL_BUILD_LDFLAGS);
        shoal_info_kv(f, "build", "shoal_cflags:%s", SHOAL_BUILD_SHOAL_CFLAGS);
        shoal_info_kv(f, "build", "configure_args:%s", SHOAL_BUILD_CONFIGURE_ARGS);
        shoal_info_kv(f, "ucx", "build_version:%s", ucx_built);
        shoal_info_kv(f, "ucx", "loaded_version:%s", ucx_loaded);
        shoal_info_kv(f, "ucx", "libs:%s", SHOAL_BUILD_UCX_LIBS);
        shoal_info_kv(f, "pmix", "build_version:%ld.%ld.%ld", (long)PMIX_VERSION_MAJOR,
                      (long)PMIX_VERSION_MINOR, (long)PMIX_VERSION_RELEASE);
        shoal_info_kv(f, "pmix", "loaded_version:%s", pmix);
        shoal_info_kv(f, "pmix", "libs:%s", SHOAL_BUILD_PMIX_LIBS);
        cuda_print(f, 1, 1);
        return;
    }
    dirs_print(f, all, 0);
    fprintf(f, "Build:\n");
    /* "gcc (Debian 12.2.0-14) 12.2.0", or "cc: gcc (Debian ...)" where the names differ */
    if (strncmp(SHOAL_BUILD_CC_VERSION, SHOAL_BUILD_CC, strlen(SHOAL_BUILD_CC)) == 0)
        shoal_info_line(f, "compiler", "%s", SHOAL_BUILD_CC_VERSION);
    else
        shoal_info_line(f, "compiler", "%s: %s", SHOAL_BUILD_CC, or_none(SHOAL_BUILD_CC_VERSION));
    shoal_info_line(f, "CFLAGS", "%s", or_none(SHOAL_BUILD_CFLAGS));
    if (all) {
        shoal_info_line(f, "Shoal's flags", "%s", or_none(SHOAL_BUILD_SHOAL_CFLAGS));
        shoal_info_line(f, "CPPFLAGS", "%s", or_none(SHOAL_BUILD_CPPFLAGS));
        shoal_info_line(f, "LDFLAGS", "%s", or_none(SHOAL_BUILD_LDFLAGS));
        shoal_info_line(f, "configure", "%s", or_none(SHOAL_BUILD_CONFIGURE_ARGS));
    }
    shoal_info_line(f, "UCX", "%s, loaded %s%s", ucx_built, ucx_loaded,
                    ucx_differs ? " (not the version Shoal was built with)" : "");
    shoal_info_line(f, "PMIx", "%ld.%ld.%ld, loaded %s", (long)PMIX_VERSION_MAJOR,
                    (long)PMIX_VERSION_MINOR, (long)PMIX_VERSION_RELEASE, pmix);
    if (all) {
        shoal_info_line(f, "UCX libs", "%s", SHOAL_BUILD_UCX_LIBS);
        shoal_info_line(f, "PMIx libs", "%s", SHOAL_BUILD_PMIX_LIBS);
    }
    cuda_print(f, all, 0);
}
