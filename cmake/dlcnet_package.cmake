# CPack: `cpack -G DEB` in the build directory (or `cmake --build build --target package`)
# makes dlcnet_<version>_<arch>.deb (and dlcnet-ns3_<version>_<arch>.deb, below) from the
# install rules (cmake/dlcnet_install.cmake).
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
# One package per install component (cmake/dlcnet_install.cmake): dlcnet, and where ns-3 was
# found dlcnet-ns3 (dlc-ns3-predict), whose Depends are ns-3's libraries (dpkg-shlibdeps) and
# this version of dlcnet: ns-3 is about 48 MB that only the ns-3 predictor needs.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_DLCNET_PACKAGE_NAME dlcnet)
set(CPACK_DEBIAN_DLCNET_FILE_NAME DEB-DEFAULT)
# dlcnet's fields are also the generic ones: with one component (no ns-3), cpack makes one
# package from those.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3, python3-matplotlib, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ibverbs-providers, iproute2, bash-completion")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "openmpi-bin, rdma-core, ucx-utils, perftest, dlcnet-ns3")
set(CPACK_COMPONENT_DLCNET_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_DEBIAN_NS3_PACKAGE_NAME dlcnet-ns3)
set(CPACK_DEBIAN_NS3_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_NS3_PACKAGE_DEPENDS "dlcnet (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_NS3_PACKAGE_RECOMMENDS "iproute2")
set(CPACK_DEBIAN_NS3_PACKAGE_SUGGESTS "ns3")
set(CPACK_DEBIAN_NS3_DESCRIPTION
    "dlc-ns3-predict: ns-3's packet-level prediction of a dlcnet run, its flows (or a replayed job) over Linux-like TCP through the namespace star's tbf, written as HPCC's fct.txt for dlc-compare.")
include(CPack)
