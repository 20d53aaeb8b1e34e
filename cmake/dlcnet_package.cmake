# CPack: `cpack -G DEB` in the build directory (or `cmake --build build --target package`)
# makes dlcnet_<version>_<arch>.deb from the install rules (cmake/dlcnet_install.cmake).
# Its Depends come from dpkg-shlibdeps, which reads what the tools link (libibverbs1,
# librdmacm1, libucx0, libnl-route-3-200, ... with the versions the build saw), after the
# Depends set here: python3, python3-matplotlib and python3-numpy, which the installed python
# tools (dlc-plot, dlc-compare-plot) run on and dpkg-shlibdeps cannot see. The verbs providers are loaded at run
# time, so they are a Recommends, as the star scripts' iproute2.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME dlcnet)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "dlcnet")
set(CPACK_PACKAGE_CONTACT "dlcnet maintainers <dlcnet@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "deep-learning communication traces and patterns as real RDMA/UCX traffic")
set(CPACK_PACKAGE_DESCRIPTION
    "dlc-bench (perftest-style latency and bandwidth, the parameter-server incast, nccl-tests' "
    "collectives), dlc-trace (read, check, analyse, generate and convert SketchDLC traces) and "
    "dlc-replay (replay a captured training job as real traffic between ranks) over libibverbs, "
    "rdma_cm or UCX, with JSON reports and per-message records.")
string(JOIN "" CPACK_PACKAGE_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES TRUE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3, python3-matplotlib, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ibverbs-providers, iproute2, bash-completion")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "openmpi-bin, rdma-core, ucx-utils, perftest")
include(CPack)
