# --enable-asan: build everything (library, oshrun, tests) under AddressSanitizer
# and UndefinedBehaviorSanitizer for tests/run-asan.sh. Off by default; it must
# never change the flags of a normal build.
AC_DEFUN([SHOAL_ENABLE_ASAN], [
  AC_ARG_ENABLE([asan],
    [AS_HELP_STRING([--enable-asan],
                    [build with -fsanitize=address,undefined -g -O1 (for tests/run-asan.sh)])],
    [], [enable_asan=no])
  AS_IF([test "x$enable_asan" = xyes && test "x$enable_tsan" = xyes],
    [AC_MSG_ERROR([--enable-asan and --enable-tsan cannot be combined: use two build trees])])
  AS_IF([test "x$enable_asan" = xyes], [
    # -fno-sanitize-recover: a UBSan finding ends the process like an ASan one,
    # so that no report can scroll by in a passing test.
    san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
    CFLAGS="$CFLAGS $san -g -O1"
    CXXFLAGS="$CXXFLAGS $san -g -O1"
    LDFLAGS="$LDFLAGS -fsanitize=address,undefined"
    AC_MSG_CHECKING([whether $CC links with -fsanitize=address,undefined])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])], [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no])
       AC_MSG_ERROR([$CC cannot link with -fsanitize=address,undefined. On Debian: apt-get install libasan8 libubsan1])])
  ])
])
