# SHOAL_CHECK_CUDA: whether to build the GPU library (gpu/, tests/gpu/) with nvcc.
#   --with-cuda       automatic (the default): on when /usr/local/cuda/bin/nvcc exists
#                     or nvcc is in PATH, off otherwise
#   --with-cuda=DIR   the toolkit in DIR (DIR/bin/nvcc), an error when it is not there
#   --without-cuda    off
#   --with-cuda-arch=LIST  compute capabilities to build for, without the dot
#                     (default 90: sm_90; 70 at least); several, comma-separated,
#                     build a fat binary
# Sets NVCC, CUDA_CPPFLAGS, CUDA_LDFLAGS (libcudart for host-compiler links),
# CUDA_ARCH (the list), CUDA_ARCH_FLAGS (nvcc's flags for it), SHOAL_HAVE_CUDA
# (yes/no, for oshcc) and the SHOAL_HAVE_CUDA conditional. Nothing here touches
# the flags of libshoal, which never links libcudart.
AC_DEFUN([SHOAL_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@],
                    [build the GPU library with the CUDA toolkit in DIR (default: automatic, on when /usr/local/cuda/bin/nvcc exists or nvcc is in PATH)])],
    [], [with_cuda=auto])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST],
                    [GPU compute capabilities to build for, without the dot, comma-separated (default: 90)])],
    [], [with_cuda_arch=90])

  cuda_dir=
  shoal_cuda_why="no nvcc in /usr/local/cuda/bin or PATH; see --with-cuda"
  AS_CASE([$with_cuda],
    [no], [shoal_cuda_why="--without-cuda"],
    [yes|auto],
      [AS_IF([test -x /usr/local/cuda/bin/nvcc], [cuda_dir=/usr/local/cuda],
         [AC_PATH_PROG([shoal_nvcc_in_path], [nvcc], [])
          AS_IF([test -n "$shoal_nvcc_in_path"],
                [cuda_dir=`AS_DIRNAME(["$shoal_nvcc_in_path"])`
                 cuda_dir=`AS_DIRNAME(["$cuda_dir"])`])])
       AS_IF([test -z "$cuda_dir" && test "x$with_cuda" = xyes],
         [AC_MSG_ERROR([--with-cuda: nvcc is neither in /usr/local/cuda/bin nor in PATH; pass --with-cuda=DIR (the directory holding bin/nvcc)])])],
    [AS_IF([test -x "$with_cuda/bin/nvcc"], [cuda_dir=$with_cuda],
       [AC_MSG_ERROR([--with-cuda=$with_cuda: there is no $with_cuda/bin/nvcc; pass the CUDA toolkit's directory (the one holding bin/nvcc), or --without-cuda])])])

  NVCC=
  CUDA_CPPFLAGS=
  CUDA_LDFLAGS=
  CUDA_ARCH=
  CUDA_ARCH_FLAGS=
  SHOAL_HAVE_CUDA=no
  AS_IF([test -n "$cuda_dir"], [
    NVCC=$cuda_dir/bin/nvcc
    CUDA_CPPFLAGS="-I$cuda_dir/include"
    cuda_libdir=$cuda_dir/lib64
    AS_IF([test -d "$cuda_libdir"], [], [cuda_libdir=$cuda_dir/lib])
    CUDA_LDFLAGS="-L$cuda_libdir -Wl,-rpath,$cuda_libdir -lcudart"
    # "80,90" -> SASS for each and PTX of the highest, which newer GPUs compile at
    # load time (one entry: -arch=sm_NN, which means the same)
    CUDA_ARCH=`echo "$with_cuda_arch" | tr ',' ' '`
    cuda_arch_max=0
    for a in $CUDA_ARCH; do
      AS_CASE([$a], [*[[!0-9]]*|''],
        [AC_MSG_ERROR([--with-cuda-arch=$with_cuda_arch: $a is not a compute capability such as 90 (sm_90)])])
      # ld.acquire.sys and __nanosleep, which the polling loop is made of
      AS_IF([test "$a" -lt 70],
        [AC_MSG_ERROR([--with-cuda-arch=$with_cuda_arch: $a is below 70; Shoal's device code needs compute capability 7.0 (sm_70) or later])])
      CUDA_ARCH_FLAGS="$CUDA_ARCH_FLAGS -gencode arch=compute_$a,code=sm_$a"
      AS_IF([test "$a" -gt "$cuda_arch_max"], [cuda_arch_max=$a])
    done
    CUDA_ARCH_FLAGS="$CUDA_ARCH_FLAGS -gencode arch=compute_$cuda_arch_max,code=compute_$cuda_arch_max"
    AS_IF([test `echo $CUDA_ARCH | wc -w` -eq 1], [CUDA_ARCH_FLAGS="-arch=sm_$CUDA_ARCH"])
    CUDA_ARCH_FLAGS=`echo $CUDA_ARCH_FLAGS`
    CUDA_ARCH=`echo $CUDA_ARCH | tr ' ' ','`

    # Relocatable device code is what the library is made of: check that much.
    AC_MSG_CHECKING([whether $NVCC compiles relocatable device code for $CUDA_ARCH_FLAGS])
    cat > conftest.cu <<_SHOAL_EOF
__device__ int shoal_conftest_value;
__global__ void shoal_conftest_kernel(int v) { shoal_conftest_value = v; }
_SHOAL_EOF
    AS_IF([$NVCC -rdc=true $CUDA_ARCH_FLAGS -c conftest.cu -o conftest.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1],
      [AC_MSG_RESULT([yes])
       SHOAL_HAVE_CUDA=yes],
      [AC_MSG_RESULT([no])
       shoal_cuda_why="$NVCC cannot compile for $CUDA_ARCH_FLAGS; see config.log"
       AS_IF([test "x$with_cuda" = xauto],
         [AC_MSG_WARN([$NVCC cannot compile for $CUDA_ARCH_FLAGS (see config.log): building without the GPU library])],
         [AC_MSG_ERROR([$NVCC cannot compile for $CUDA_ARCH_FLAGS (see config.log); pass another --with-cuda-arch, or --without-cuda])])])
    rm -f conftest.cu conftest.$OBJEXT
  ])
  AS_IF([test "x$SHOAL_HAVE_CUDA" = xno], [NVCC= CUDA_CPPFLAGS= CUDA_LDFLAGS= CUDA_ARCH= CUDA_ARCH_FLAGS=])
  AC_MSG_CHECKING([whether to build the GPU library (CUDA)])
  AS_IF([test "x$SHOAL_HAVE_CUDA" = xyes],
        [AC_MSG_RESULT([yes, $NVCC $CUDA_ARCH_FLAGS])],
        [AC_MSG_RESULT([no ($shoal_cuda_why)])])
  AC_SUBST([NVCC])
  AC_SUBST([CUDA_CPPFLAGS])
  AC_SUBST([CUDA_LDFLAGS])
  AC_SUBST([CUDA_ARCH])
  AC_SUBST([CUDA_ARCH_FLAGS])
  AC_SUBST([SHOAL_HAVE_CUDA])
  AM_CONDITIONAL([SHOAL_HAVE_CUDA], [test "x$SHOAL_HAVE_CUDA" = xyes])
])
