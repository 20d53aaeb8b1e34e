# What `cmake --install` puts where (GNU layout under CMAKE_INSTALL_PREFIX; the .deb uses /usr):
#   bin/<tool>                                      the tools (dlcnet_install_tool)
#   share/man/man1/<tool>.1.gz                      made at build time by help2man from the
#                                                   built tool's --help (packaging/help-all.sh),
#                                                   and dlc-plot's, dlc-compare-plot's
#   share/bash-completion/completions/<tool>        packaging/completion.bash (reads --help)
#   share/doc/dlcnet/                               README, LICENSE, copyright, docs/*.md,
#                                                   docs/plots/ (docs/plots.md's images)
#   share/dlcnet/scripts/                           netns-star.sh (+ netns-star-state.sh), star-run.sh
#   share/dlcnet/examples/                          the bundled example job
#   share/dlcnet/dlcplot/                           dlc-plot's python modules (tools/dlcplot)
#                                                   and plot_version.py (both tools' --version)
include(GNUInstallDirs)

find_program(DLCNET_HELP2MAN help2man)
if(NOT DLCNET_HELP2MAN)
  message(WARNING "help2man not found: no man pages (scripts/install-deps.sh installs it)")
endif()

# Everything is in the install component `dlcnet` (the package dlcnet) unless a tool names
# another: dlc-ns3-predict is in `ns3` (the package dlcnet-ns3, which alone needs ns-3's
# libraries). `cmake --install` installs every component.
set(CMAKE_INSTALL_DEFAULT_COMPONENT_NAME dlcnet)

# dlcnet_install_tool(TOOL SUMMARY [COMPONENT C]): installs TOOL, its man page (SUMMARY is the
# page's NAME line) and its bash completion, in component C (default dlcnet), and lists it in
# the global property DLCNET_TOOLS.
function(dlcnet_install_tool tool summary)
  cmake_parse_arguments(_arg "" "COMPONENT" "" ${ARGN})
  if(NOT _arg_COMPONENT)
    set(_arg_COMPONENT dlcnet)
  endif()
  set_property(GLOBAL APPEND PROPERTY DLCNET_TOOLS ${tool})
  install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT ${_arg_COMPONENT})
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/completion.bash
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME ${tool}
          COMPONENT ${_arg_COMPONENT})
  if(NOT DLCNET_HELP2MAN)
    return()
  endif()
  set(_page ${PROJECT_BINARY_DIR}/man/${tool}.1)
  set(_help_all ${PROJECT_SOURCE_DIR}/packaging/help-all.sh)
  # help2man runs a program with --help and --version: this one, named after the tool.
  file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/man/run/${tool}
       CONTENT "#!/bin/sh\nexec bash '${_help_all}' '$<TARGET_FILE:${tool}>' \"$@\"\n"
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                        WORLD_READ WORLD_EXECUTE)
  add_custom_command(
    OUTPUT ${_page}.gz
    COMMAND ${DLCNET_HELP2MAN} --no-info --no-discard-stderr --section=1 --source=dlcnet
            --name=${summary} --output=${_page} ${PROJECT_BINARY_DIR}/man/run/${tool}
    COMMAND gzip -9nf ${_page}
    DEPENDS ${tool} ${_help_all} ${PROJECT_SOURCE_DIR}/packaging/completion.bash
    COMMENT "Man page of ${tool} (help2man)"
    VERBATIM)
  add_custom_target(${tool}-man ALL DEPENDS ${_page}.gz)
  install(FILES ${_page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT ${_arg_COMPONENT})
endfunction()

# The files every installation has, whichever tools are built.
function(dlcnet_install_shared)
  file(GLOB _docs ${PROJECT_SOURCE_DIR}/docs/*.md)
  install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE
                ${PROJECT_SOURCE_DIR}/packaging/copyright ${_docs}
          DESTINATION ${CMAKE_INSTALL_DOCDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/plots DESTINATION ${CMAKE_INSTALL_DOCDIR})
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/netns-star.sh
                   ${PROJECT_SOURCE_DIR}/scripts/star-run.sh
          DESTINATION ${CMAKE_INSTALL_DATADIR}/dlcnet/scripts)
  # Sourced by netns-star.sh from its own folder.
  install(FILES ${PROJECT_SOURCE_DIR}/scripts/netns-star-state.sh
          DESTINATION ${CMAKE_INSTALL_DATADIR}/dlcnet/scripts)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/
          DESTINATION ${CMAKE_INSTALL_DATADIR}/dlcnet/examples)
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/dlc-compare-plot ${PROJECT_SOURCE_DIR}/tools/dlc-plot
          DESTINATION ${CMAKE_INSTALL_BINDIR})
  # The same completion as the C++ tools' (it reads argparse's --help too).
  foreach(_py dlc-plot dlc-compare-plot)
    install(FILES ${PROJECT_SOURCE_DIR}/packaging/completion.bash
            DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME ${_py})
  endforeach()
  # dlc-plot's modules where it looks for them (../share/dlcnet/dlcplot from bin/), with the
  # version its --version prints (in the source tree it reads CMakeLists.txt instead).
  file(GLOB _plot_modules ${PROJECT_SOURCE_DIR}/tools/dlcplot/*.py)
  file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/dlcplot/plot_version.py
       CONTENT "# Written by cmake/dlcnet_install.cmake.\nVERSION = \"${PROJECT_VERSION}\"\n")
  install(FILES ${_plot_modules} ${PROJECT_BINARY_DIR}/dlcplot/plot_version.py
          DESTINATION ${CMAKE_INSTALL_DATADIR}/dlcnet/dlcplot)
  # Their man pages, as the tools' (help2man from their --help and --version, which load no
  # matplotlib).
  if(DLCNET_HELP2MAN)
    foreach(_py dlc-plot dlc-compare-plot)
      if(_py STREQUAL dlc-plot)
        set(_name "PNG plots of dlcnet's JSON reports and record files")
      else()
        set(_name "PNG pictures of a dlc-compare comparison, measured against predicted")
      endif()
      set(_page ${PROJECT_BINARY_DIR}/man/${_py}.1)
      add_custom_command(
        OUTPUT ${_page}.gz
        COMMAND ${DLCNET_HELP2MAN} --no-info --no-discard-stderr --section=1 --source=dlcnet
                "--name=${_name}" --output=${_page} ${PROJECT_SOURCE_DIR}/tools/${_py}
        COMMAND gzip -9nf ${_page}
        DEPENDS ${PROJECT_SOURCE_DIR}/tools/${_py} ${_plot_modules}
                ${PROJECT_SOURCE_DIR}/CMakeLists.txt
        COMMENT "Man page of ${_py} (help2man)"
        VERBATIM)
      add_custom_target(${_py}-man ALL DEPENDS ${_page}.gz)
      install(FILES ${_page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
    endforeach()
  endif()
endfunction()
