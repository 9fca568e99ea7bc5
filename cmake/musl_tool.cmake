# musl_tool.cmake - the peo command, library included, compiled and linked
# statically with musl-gcc (PEO_MUSL_GCC).  CMake allows one C compiler per
# build, so each source is a custom command with its own dependency file.
#
# Sets PEO_TOOL_PATH (the binary) and adds the target peo_tool.

set(musl_dir ${CMAKE_BINARY_DIR}/musl)
set(musl_flags ${PEO_WARNINGS} -O2 -g -flto=auto -std=gnu11 -D_GNU_SOURCE -fno-tree-loop-distribute-patterns
    -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR}/src -I${PROJECT_SOURCE_DIR}/tools)
set(musl_libs -lm)
# zstd: its two headers alone (the rest of /usr/include is glibc's), and the
# static archive, which is plain C and links under musl.
if(PEO_ZSTD_INCLUDE AND PEO_ZSTD_STATIC_LIB)
  file(COPY ${PEO_ZSTD_INCLUDE}/zstd.h ${PEO_ZSTD_INCLUDE}/zstd_errors.h
       DESTINATION ${musl_dir}/include)
  list(APPEND musl_flags -DPEO_HAVE_ZSTD -I${musl_dir}/include)
  list(PREPEND musl_libs ${PEO_ZSTD_STATIC_LIB})
endif()
# elfutils: its public headers alone, and Debian's static archives (made
# for glibc) with compat/musl_glibc_shim.c for the glibc-only functions they
# call.  libdw cannot dlopen libdebuginfod in a static command.
set(musl_extra_sources)
if(PEO_LIBDW_FOUND)
  file(COPY /usr/include/libelf.h /usr/include/gelf.h /usr/include/dwarf.h
       DESTINATION ${musl_dir}/include)
  file(COPY /usr/include/elfutils/libdw.h /usr/include/elfutils/libdwfl.h
       /usr/include/elfutils/libdwelf.h /usr/include/elfutils/version.h
       DESTINATION ${musl_dir}/include/elfutils)
  list(APPEND musl_flags -DPEO_HAVE_LIBDW -isystem ${musl_dir}/include)
  list(PREPEND musl_libs ${PEO_STATIC_dw} ${PEO_STATIC_elf} ${PEO_STATIC_z}
       ${PEO_STATIC_lzma} ${PEO_STATIC_bz2})
  list(APPEND musl_extra_sources ${PROJECT_SOURCE_DIR}/compat/musl_glibc_shim.c)
endif()
# libdeflate: its header and static archive (plain C, links under musl).
if(PEO_LIBDW_FOUND AND PEO_DEFLATE_INCLUDE AND PEO_DEFLATE_STATIC_LIB)
  file(COPY ${PEO_DEFLATE_INCLUDE}/libdeflate.h DESTINATION ${musl_dir}/include)
  list(APPEND musl_flags -DPEO_HAVE_DEFLATE)
  list(PREPEND musl_libs ${PEO_DEFLATE_STATIC_LIB})
endif()
if(PEO_IBERTY_INCLUDE AND PEO_IBERTY_LIB)
  file(COPY ${PEO_IBERTY_INCLUDE}/demangle.h ${PEO_IBERTY_INCLUDE}/libiberty.h ${PEO_IBERTY_INCLUDE}/ansidecl.h
       DESTINATION ${musl_dir}/include/libiberty)
  list(APPEND musl_flags -DPEO_HAVE_DEMANGLE -isystem ${musl_dir}/include/libiberty)
  list(PREPEND musl_libs ${PEO_IBERTY_LIB})
  list(APPEND musl_extra_sources ${PROJECT_SOURCE_DIR}/compat/musl_glibc_shim.c)
  list(REMOVE_DUPLICATES musl_extra_sources)
endif()
# protobuf-c (peo report --pprof): its header and static archive (plain C).
if(PEO_PPROF_SOURCES AND PEO_PROTOBUF_C_STATIC_LIB)
  file(COPY ${PEO_PROTOBUF_C_INCLUDE}/protobuf-c/protobuf-c.h DESTINATION ${musl_dir}/include/protobuf-c)
  list(APPEND musl_flags -DPEO_HAVE_PPROF -I${PEO_GENERATED} -isystem ${musl_dir}/include)
  list(PREPEND musl_libs ${PEO_PROTOBUF_C_STATIC_LIB})
  if(PEO_DEFLATE_INCLUDE AND PEO_DEFLATE_STATIC_LIB AND NOT PEO_LIBDW_FOUND)
    file(COPY ${PEO_DEFLATE_INCLUDE}/libdeflate.h DESTINATION ${musl_dir}/include)
    list(APPEND musl_flags -DPEO_HAVE_DEFLATE)
    list(PREPEND musl_libs ${PEO_DEFLATE_STATIC_LIB})
  endif()
elseif(PEO_PPROF_SOURCES)
  list(REMOVE_ITEM PEO_TOOL_SOURCES ${PEO_PPROF_SOURCES}) # no static archive: --pprof says so
endif()
set(musl_objects)
set(musl_lib_objects) # the library's, the shim's: what a test driver links too
foreach(src ${PEO_SOURCES} ${musl_extra_sources} ${PEO_TOOL_SOURCES})
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${src})
  set(obj ${musl_dir}/${rel}.o)
  get_filename_component(obj_dir ${obj} DIRECTORY)
  add_custom_command(OUTPUT ${obj}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${obj_dir}
    COMMAND ${PEO_MUSL_GCC} ${musl_flags} -MD -MF ${obj}.d -c ${src} -o ${obj}
    DEPENDS ${src}
    DEPFILE ${obj}.d
    COMMENT "musl-gcc ${rel}"
    VERBATIM COMMAND_EXPAND_LISTS)
  list(APPEND musl_objects ${obj})
  if(NOT src IN_LIST PEO_TOOL_SOURCES)
    list(APPEND musl_lib_objects ${obj})
  endif()
endforeach()

# Linked under musl/ and copied up: an OUTPUT named build/peo would be taken
# for the library target "peo".
set(PEO_TOOL_PATH ${CMAKE_BINARY_DIR}/peo)
add_custom_command(OUTPUT ${musl_dir}/peo
  COMMAND ${PEO_MUSL_GCC} -static -O2 -g -flto=auto -o ${musl_dir}/peo ${musl_objects} ${musl_libs}
  COMMAND ${CMAKE_COMMAND} -E copy ${musl_dir}/peo ${PEO_TOOL_PATH}
  DEPENDS ${musl_objects}
  COMMENT "musl-gcc -static peo"
  VERBATIM)
add_custom_target(peo_tool ALL DEPENDS ${musl_dir}/peo)
install(PROGRAMS ${PEO_TOOL_PATH} DESTINATION ${CMAKE_INSTALL_BINDIR})

# tests/sym_lookup.c linked as the command is, for sym_elf_compare.sh: the
# glibc-built elfutils archives must read binaries as they do under glibc.
if(PEO_TESTS AND PEO_LIBDW_FOUND)
  set(PEO_MUSL_SYM_LOOKUP ${musl_dir}/sym_lookup)
  add_custom_command(OUTPUT ${PEO_MUSL_SYM_LOOKUP}
    COMMAND ${PEO_MUSL_GCC} ${musl_flags} -static -o ${PEO_MUSL_SYM_LOOKUP}
            ${PROJECT_SOURCE_DIR}/tests/sym_lookup.c ${musl_lib_objects} ${musl_libs}
    DEPENDS ${musl_lib_objects} ${PROJECT_SOURCE_DIR}/tests/sym_lookup.c
    COMMENT "musl-gcc -static sym_lookup"
    VERBATIM COMMAND_EXPAND_LISTS)
  add_custom_target(musl_sym_lookup ALL DEPENDS ${PEO_MUSL_SYM_LOOKUP})
  # after the command: each target would compile the shared objects itself,
  # two at once over the same files
  add_dependencies(musl_sym_lookup peo_tool)
endif()
