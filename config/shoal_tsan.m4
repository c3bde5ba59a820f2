# --enable-tsan: build everything (library, oshrun, tests) under ThreadSanitizer
# for the thread tests (tests/run-tsan.sh). Off by default; it must never change
# the flags of a normal build.
AC_DEFUN([SHOAL_ENABLE_TSAN], [
  AC_ARG_ENABLE([tsan],
    [AS_HELP_STRING([--enable-tsan],
                    [build with -fsanitize=thread -g -O1 (for tests/run-tsan.sh)])],
    [], [enable_tsan=no])
  AS_IF([test "x$enable_tsan" = xyes], [
    # Appended after the user's flags so that -O1 wins over autoconf's -O2; set
    # before the dependency checks so that those link the way the build will.
    CFLAGS="$CFLAGS -fsanitize=thread -g -O1"
    CXXFLAGS="$CXXFLAGS -fsanitize=thread -g -O1"
    LDFLAGS="$LDFLAGS -fsanitize=thread"
    AC_MSG_CHECKING([whether $CC links with -fsanitize=thread])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])], [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no])
       AC_MSG_ERROR([$CC cannot link with -fsanitize=thread. On Debian: apt-get install libtsan2])])
  ])
])
