# Shoal's dependency checks. Each stops configure with the Debian package to
# install when a dependency is missing.

# SHOAL_CHECK_PKG(VAR, pkg-config-name, --with-NAME, header, library, debian-package)
AC_DEFUN([SHOAL_CHECK_PKG], [
  AC_ARG_WITH([$3], [AS_HELP_STRING([--with-$3=DIR], [where $3 is installed])],
              [], [with_$3=auto])
  AS_IF([test "x$with_$3" = xno],
        [AC_MSG_ERROR([Shoal cannot be built without $3])])
  AS_IF([test "x$with_$3" != xauto && test "x$with_$3" != xyes],
        [$1_CFLAGS="-I$with_$3/include"
         $1_LIBS="-L$with_$3/lib -Wl,-rpath,$with_$3/lib -l$5"
         AS_IF([test "$3" = ucx], [$1_LIBS="$$1_LIBS -luct -lucs"])],
        [PKG_CHECK_MODULES([$1], [$2], [],
           [AC_MSG_ERROR([$3 not found through pkg-config ($$1_PKG_ERRORS). On Debian: apt-get install $6 - or pass --with-$3=DIR])])])
  shoal_save_CPPFLAGS=$CPPFLAGS
  shoal_save_LIBS=$LIBS
  CPPFLAGS="$CPPFLAGS $$1_CFLAGS"
  LIBS="$$1_LIBS $LIBS"
  AC_CHECK_HEADER([$4], [],
     [AC_MSG_ERROR([$4 not found. On Debian: apt-get install $6 - or pass --with-$3=DIR])])
  AC_MSG_CHECKING([whether $3 links])
  AC_LINK_IFELSE([AC_LANG_CALL([], [$7])], [AC_MSG_RESULT([yes])],
     [AC_MSG_RESULT([no])
      AC_MSG_ERROR([cannot link with $3 ($$1_LIBS). On Debian: apt-get install $6])])
  CPPFLAGS=$shoal_save_CPPFLAGS
  LIBS=$shoal_save_LIBS
  AC_SUBST([$1_CFLAGS])
  AC_SUBST([$1_LIBS])
])

AC_DEFUN([SHOAL_CHECK_UCX],
  [SHOAL_CHECK_PKG([UCX], [ucx], [ucx], [ucp/api/ucp.h], [ucp], [libucx-dev], [ucp_init_version])])
AC_DEFUN([SHOAL_CHECK_PMIX],
  [SHOAL_CHECK_PKG([PMIX], [pmix], [pmix], [pmix.h], [pmix], [libpmix-dev], [PMIx_Init])])

# Check is only needed for 'make check'; without it the unit tests are skipped.
AC_DEFUN([SHOAL_CHECK_CHECK], [
  PKG_CHECK_MODULES([CHECK], [check], [have_check=yes],
    [have_check=no
     AC_MSG_WARN([Check not found: unit tests will not be built. On Debian: apt-get install check])])
  AM_CONDITIONAL([HAVE_CHECK], [test "x$have_check" = xyes])
])

# The flags Shoal adds to its own code: warnings, and how the test programs link.
AC_DEFUN([AX_CHECK_COMPILE_FLAG_SHOAL], [
  SHOAL_CFLAGS="-D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter"
  AC_SUBST([SHOAL_CFLAGS])
  # The test and bench programs (AM_LDFLAGS of tests/pe, tests/fuzz,
  # tests/gpu-cpu, bench): real executables with an rpath to the build's
  # libraries, not libtool's wrapper scripts, whose shell, sed and ls cost 16 ms
  # of CPU at every start of every PE.
  SHOAL_PROGRAM_LDFLAGS="-no-install"
  AC_SUBST([SHOAL_PROGRAM_LDFLAGS])
])
