# `cpack -G DEB` (scripts/package.sh): mlperf-lint_<version>_amd64.deb with the
# installed layout of linter/CMakeLists.txt. It depends on LLVM 19's runtime
# libraries (the binary's NEEDED libLLVM.so.19.1 and libclang-cpp.so.19.1) and
# on clang 19's builtin headers (stddef.h and friends), which Debian ships in
# libclang-common-19-dev; nothing else beyond libc and libstdc++.
set(CPACK_PACKAGE_NAME mlperf-lint)
set(CPACK_PACKAGE_VENDOR "mlperf-lint")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Static performance linter for C++ machine-learning model code")
set(CPACK_PACKAGE_CONTACT "mlperf-lint maintainers <mlperf-lint@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libllvm19, libclang-cpp19, libclang-common-19-dev")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_STRIP_FILES ON)
include(CPack)
