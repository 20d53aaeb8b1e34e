# dlcnet_add_subdirs(): adds every folder below the current one that has a CMakeLists.txt.
# A folder may name the components it needs in a line of its CMakeLists.txt such as
# `# requires: verbs ucx`; it is skipped when one of them is switched off (DLCNET_WITH_<X>).
# Before each add_subdirectory() the variable DLCNET_SUBDIR_NAME holds the folder's name.
macro(dlcnet_add_subdirs)
  file(GLOB _dlcnet_dirs LIST_DIRECTORIES true ${CMAKE_CURRENT_SOURCE_DIR}/*)
  foreach(_dir ${_dlcnet_dirs})
    if(IS_DIRECTORY ${_dir} AND EXISTS ${_dir}/CMakeLists.txt)
      file(STRINGS ${_dir}/CMakeLists.txt _req REGEX "^# requires:")
      set(_ok TRUE)
      if(_req)
        string(REPLACE "# requires:" "" _req "${_req}")
        separate_arguments(_req)
        foreach(_c ${_req})
          string(TOUPPER ${_c} _C)
          if(NOT DLCNET_WITH_${_C})
            set(_ok FALSE)
          endif()
        endforeach()
      endif()
      if(_ok)
        get_filename_component(DLCNET_SUBDIR_NAME ${_dir} NAME)
        dlcnet_before_subdir()
        add_subdirectory(${_dir})
      endif()
    endif()
  endforeach()
endmacro()

# Hook a folder may redefine to set variables before each subfolder is added.
macro(dlcnet_before_subdir)
endmacro()
