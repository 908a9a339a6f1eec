# The Cortex-M test firmware, shared by the boards (targets/cortex-m55-an547,
# targets/cortex-m7-an500): the harness, the platform layer, startup code, the model file
# linked into flash, and the ctest checks that run it under qemu-system-arm.
#
#   edgenmt_add_cortex_m_firmware(NAME LINKER_SCRIPT FILE BOARD_SOURCES ...
#                                 QEMU_MACHINE M QEMU_CPU C [MODEL FILE] [ARENA_BYTES N]
#                                 [TRANSFORMER] [EXPECT_INIT_ERROR REGEX])
# MODEL / ARENA_BYTES default to EDGENMT_FIRMWARE_MODEL / EDGENMT_FIRMWARE_ARENA_BYTES; a board
# builds one firmware per model (the shipped one and the microcontroller one). TRANSFORMER
# links the Transformer's objects (runtime/CMakeLists.txt edgenmt_transformer_objects), which
# the microcontroller library leaves out. EXPECT_INIT_ERROR: the model is one this build must
# refuse; its test checks that Init does, with an error line matching REGEX.
enable_language(ASM)

set(EDGENMT_FIRMWARE_MODEL "${PROJECT_SOURCE_DIR}/build/models/g2p-en.int8-full.enmt" CACHE FILEPATH
    "Cortex-M firmware: the .enmt file linked into flash (make models writes the default)")
set(EDGENMT_FIRMWARE_ARENA_BYTES 131072 CACHE STRING
    "Cortex-M firmware: the static arena in bytes (the shipped model needs about 87 KiB at beam 5)")
set(EDGENMT_FIRMWARE_WORDS 100 CACHE STRING
    "Cortex-M firmware tests: how many sources of data/g2p/test.tsv to decode")
find_program(EDGENMT_QEMU_SYSTEM_ARM qemu-system-arm DOC "QEMU's Arm system emulator (qemu-system-arm)")
set(EDGENMT_CORTEX_M_COMMON_DIR ${CMAKE_CURRENT_LIST_DIR})

function(edgenmt_add_cortex_m_firmware name)
  cmake_parse_arguments(ARG "TRANSFORMER"
                        "LINKER_SCRIPT;QEMU_MACHINE;QEMU_CPU;MODEL;ARENA_BYTES;EXPECT_INIT_ERROR"
                        "BOARD_SOURCES" ${ARGN})
  set(common ${EDGENMT_CORTEX_M_COMMON_DIR})
  if(NOT ARG_MODEL)
    set(ARG_MODEL ${EDGENMT_FIRMWARE_MODEL})
  endif()
  if(NOT ARG_ARENA_BYTES)
    set(ARG_ARENA_BYTES ${EDGENMT_FIRMWARE_ARENA_BYTES})
  endif()
  # Each firmware links its own copy of the model blob (the model path is a per-file define).
  set(blob ${CMAKE_CURRENT_BINARY_DIR}/${name}_model_blob.S)
  configure_file(${common}/model_blob.S ${blob} COPYONLY)
  add_executable(${name} ${common}/harness.cc ${common}/platform.c ${common}/semihosting.c
                 ${common}/startup.c ${blob} ${ARG_BOARD_SOURCES})
  # A board's scripts may INCLUDE each other (an547_memory.ld): its folder is searched too.
  get_filename_component(board_dir ${ARG_LINKER_SCRIPT} DIRECTORY)
  file(GLOB board_scripts ${board_dir}/*.ld)
  set_target_properties(${name} PROPERTIES SUFFIX .elf
                        LINK_DEPENDS "${board_scripts};${common}/sections.ld")
  target_include_directories(${name} PRIVATE ${common})
  target_link_libraries(${name} PRIVATE edgenmt_runtime)
  if(ARG_TRANSFORMER AND TARGET edgenmt_transformer_objects)
    target_sources(${name} PRIVATE $<TARGET_OBJECTS:edgenmt_transformer_objects>)
  endif()
  target_compile_definitions(${name} PRIVATE
    EDGENMT_FIRMWARE_ARENA_BYTES=${ARG_ARENA_BYTES})
  set_source_files_properties(${blob} PROPERTIES
    COMPILE_DEFINITIONS "EDGENMT_FIRMWARE_MODEL=\"${ARG_MODEL}\""
    OBJECT_DEPENDS ${ARG_MODEL})
  # Own startup code (no crt0); newlib with semihosting system calls (librdimon) for stdio.
  target_link_options(${name} PRIVATE -nostartfiles --specs=rdimon.specs
    -T${ARG_LINKER_SCRIPT} -L${board_dir} -L${common}
    -Wl,-Map=$<TARGET_FILE_DIR:${name}>/${name}.map -Wl,--print-memory-usage)
  if(NOT EXISTS ${ARG_MODEL})
    message(WARNING "${ARG_MODEL} does not exist yet: run `make build models` "
                    "before building the firmware")
  endif()

  if(ARG_EXPECT_INIT_ERROR)
    add_test(NAME ${name}_refused_at_init
             COMMAND ${common}/expect_init_refusal.sh ${EDGENMT_QEMU_SYSTEM_ARM} ${ARG_QEMU_MACHINE}
                     ${ARG_QEMU_CPU} $<TARGET_FILE:${name}> "${ARG_EXPECT_INIT_ERROR}")
    set_tests_properties(${name}_refused_at_init PROPERTIES TIMEOUT 180)
    return()
  endif()
  # The firmware decodes the first EDGENMT_FIRMWARE_WORDS test words exactly like the host CLI,
  # greedy and with the model's stored decoding defaults (beam 5), with the same model file.
  if(EDGENMT_HOST_BUILD_DIR)
    foreach(beam 1 default)
      add_test(NAME ${name}_matches_host_beam_${beam}
               COMMAND ${common}/run_firmware.sh ${EDGENMT_QEMU_SYSTEM_ARM} ${ARG_QEMU_MACHINE}
                       ${ARG_QEMU_CPU} $<TARGET_FILE:${name}> ${EDGENMT_HOST_BUILD_DIR}/edgenmt
                       ${ARG_MODEL} ${PROJECT_SOURCE_DIR}/data/g2p/test.tsv
                       ${EDGENMT_FIRMWARE_WORDS} ${beam})
      set_tests_properties(${name}_matches_host_beam_${beam} PROPERTIES TIMEOUT 900)
    endforeach()
  endif()
endfunction()

# A firmware whose model the Cortex-M presets' int8-full-only library (EDGENMT_FLOAT_SCHEMES
# OFF) must refuse: the hybrid int8 g2p-en-mcu file, which Init refuses by name (exit status 5,
# nothing crashes). Nothing is added where the float schemes are built.
#   edgenmt_add_cortex_m_scheme_refusal(NAME LINKER_SCRIPT FILE BOARD_SOURCES ...
#                                       QEMU_MACHINE M QEMU_CPU C)
function(edgenmt_add_cortex_m_scheme_refusal name)
  if(EDGENMT_FLOAT_SCHEMES)
    return()
  endif()
  edgenmt_add_cortex_m_firmware(${name} ${ARGN}
    MODEL ${PROJECT_SOURCE_DIR}/build/models/g2p-en-mcu.int8.enmt ARENA_BYTES 65536
    EXPECT_INIT_ERROR "error: init: .*int8 \\(hybrid\\) models are not in this build \\(EDGENMT_FLOAT_SCHEMES=OFF\\)")
endfunction()

# The kernel tests as a firmware: GoogleTest (Debian's libgtest-dev sources, built for the core
# without exceptions, RTTI, threads, POSIX regex or stream redirection) and the host's test
# sources, linked with the same runtime library; run under qemu-system-arm with semihosting.
#   edgenmt_add_cortex_m_kernel_tests(NAME LINKER_SCRIPT FILE BOARD_SOURCES ...
#                                     QEMU_MACHINE M QEMU_CPU C TESTS source.cc ...)
# The host's backend-against-reference test sources, run in the firmware too: every SIMD level
# the core has against the reference, every backend's table. (The reference-against-exact-math
# tests, kernels_s8_test.cc and fixed_point_test.cc, need __int128, which 32-bit Arm lacks; the
# firmware's whole-model outputs, identical to the host's, cover the reference there.)
set(EDGENMT_CORTEX_M_KERNEL_TESTS
  ${PROJECT_SOURCE_DIR}/tests/kernels_simd_test.cc ${PROJECT_SOURCE_DIR}/tests/kernels_simd_elementwise_test.cc
  ${PROJECT_SOURCE_DIR}/tests/kernels_f32_test.cc
  ${PROJECT_SOURCE_DIR}/tests/kernel_table_test.cc
  ${PROJECT_SOURCE_DIR}/tests/kernels_transformer_s8_test.cc)
set(EDGENMT_BARE_METAL_GTEST_DIR "/usr/src/googletest/googletest" CACHE PATH
    "Cortex-M kernel tests: GoogleTest's sources (libgtest-dev)")
function(edgenmt_add_cortex_m_kernel_tests name)
  cmake_parse_arguments(ARG "" "LINKER_SCRIPT;QEMU_MACHINE;QEMU_CPU" "BOARD_SOURCES;TESTS" ${ARGN})
  set(common ${EDGENMT_CORTEX_M_COMMON_DIR})
  set(gtest_dir ${EDGENMT_BARE_METAL_GTEST_DIR})
  if(NOT EXISTS ${gtest_dir}/src/gtest-all.cc)
    message(WARNING "${gtest_dir}/src/gtest-all.cc missing (libgtest-dev): no ${name}")
    return()
  endif()
  if(NOT TARGET edgenmt_bare_metal_gtest)
    add_library(edgenmt_bare_metal_gtest STATIC ${gtest_dir}/src/gtest-all.cc)
    target_include_directories(edgenmt_bare_metal_gtest SYSTEM PUBLIC ${gtest_dir}/include
                               PRIVATE ${gtest_dir})
    target_compile_definitions(edgenmt_bare_metal_gtest PUBLIC GTEST_HAS_PTHREAD=0
      GTEST_HAS_POSIX_RE=0 GTEST_HAS_STREAM_REDIRECTION=0 GTEST_HAS_EXCEPTIONS=0
      GTEST_HAS_RTTI=0 _GNU_SOURCE PRIVATE _POSIX_PATH_MAX=256)
  endif()
  add_executable(${name} ${common}/gtest_main.cc ${common}/platform.c ${common}/semihosting.c
                 ${common}/startup.c ${ARG_BOARD_SOURCES} ${ARG_TESTS})
  set_target_properties(${name} PROPERTIES SUFFIX .elf
                        LINK_DEPENDS "${ARG_LINKER_SCRIPT};${common}/sections.ld")
  target_include_directories(${name} PRIVATE ${common} ${PROJECT_SOURCE_DIR}/runtime/src)
  target_link_libraries(${name} PRIVATE edgenmt_runtime edgenmt_bare_metal_gtest)
  # The Transformer's kernels, which the microcontroller library leaves out, are tested too.
  if(TARGET edgenmt_transformer_objects)
    target_sources(${name} PRIVATE $<TARGET_OBJECTS:edgenmt_transformer_objects>)
  endif()
  target_link_options(${name} PRIVATE -nostartfiles --specs=rdimon.specs
    -T${ARG_LINKER_SCRIPT} -L${common} -Wl,-Map=$<TARGET_FILE_DIR:${name}>/${name}.map)
  add_test(NAME ${name}
           COMMAND timeout 1200 ${EDGENMT_QEMU_SYSTEM_ARM} -M ${ARG_QEMU_MACHINE} -cpu ${ARG_QEMU_CPU}
                   -nographic -monitor none -serial null
                   -semihosting-config enable=on,target=native,arg=${name}
                   -kernel $<TARGET_FILE:${name}>)
  set_tests_properties(${name} PROPERTIES TIMEOUT 1300 LABELS "cortex-m;kernels")
endfunction()

# The phonemizer as a firmware (issue 59 §6): a phonemizer file (model + lexicon) in flash, the
# front end (frontend/) and the Transformer's objects linked beside the library, the sentence
# test set read through semihosting and checked byte-identical to the host CLI's output.
#   edgenmt_add_cortex_m_phonemizer_firmware(NAME LINKER_SCRIPT FILE BOARD_SOURCES ...
#                                            QEMU_MACHINE M QEMU_CPU C FILE F ARENA_BYTES N
#                                            [FORMATS arpabet ipa json])
# FORMATS: the output formats checked against the host (default arpabet; the IPA and JSON
# writers are portable code, so one board checking them covers the others).
set(EDGENMT_PHONEMIZER_SENTENCES "${PROJECT_SOURCE_DIR}/tests/data/phonemizer/sentences.tsv")
function(edgenmt_add_cortex_m_phonemizer_firmware name)
  cmake_parse_arguments(ARG "" "LINKER_SCRIPT;QEMU_MACHINE;QEMU_CPU;FILE;ARENA_BYTES"
                        "BOARD_SOURCES;FORMATS" ${ARGN})
  if(NOT ARG_FORMATS)
    set(ARG_FORMATS arpabet)
  endif()
  set(common ${EDGENMT_CORTEX_M_COMMON_DIR})
  if(NOT EXISTS ${ARG_FILE})
    message(STATUS "${ARG_FILE} does not exist: no ${name} (make models packs it once "
                   "models/g2p-en-stress-mcu exists)")
    return()
  endif()
  set(blob ${CMAKE_CURRENT_BINARY_DIR}/${name}_model_blob.S)
  configure_file(${common}/model_blob.S ${blob} COPYONLY)
  add_executable(${name} ${common}/phonemizer_harness.cc ${common}/platform.c
                 ${common}/semihosting.c ${common}/startup.c ${blob} ${ARG_BOARD_SOURCES})
  get_filename_component(board_dir ${ARG_LINKER_SCRIPT} DIRECTORY)
  file(GLOB board_scripts ${board_dir}/*.ld)
  set_target_properties(${name} PROPERTIES SUFFIX .elf
                        LINK_DEPENDS "${board_scripts};${common}/sections.ld")
  target_include_directories(${name} PRIVATE ${common})
  target_link_libraries(${name} PRIVATE edgenmt_frontend edgenmt_runtime)
  if(TARGET edgenmt_transformer_objects)
    target_sources(${name} PRIVATE $<TARGET_OBJECTS:edgenmt_transformer_objects>)
  endif()
  target_compile_definitions(${name} PRIVATE EDGENMT_FIRMWARE_ARENA_BYTES=${ARG_ARENA_BYTES})
  set_source_files_properties(${blob} PROPERTIES
    COMPILE_DEFINITIONS "EDGENMT_FIRMWARE_MODEL=\"${ARG_FILE}\"" OBJECT_DEPENDS ${ARG_FILE})
  target_link_options(${name} PRIVATE -nostartfiles --specs=rdimon.specs
    -T${ARG_LINKER_SCRIPT} -L${board_dir} -L${common}
    -Wl,-Map=$<TARGET_FILE_DIR:${name}>/${name}.map -Wl,--print-memory-usage)
  if(EDGENMT_HOST_BUILD_DIR)
    foreach(format ${ARG_FORMATS})
      add_test(NAME ${name}_matches_host_${format}
               COMMAND ${common}/run_phonemizer_firmware.sh ${EDGENMT_QEMU_SYSTEM_ARM}
                       ${ARG_QEMU_MACHINE} ${ARG_QEMU_CPU} $<TARGET_FILE:${name}>
                       ${EDGENMT_HOST_BUILD_DIR}/edgenmt ${ARG_FILE}
                       ${EDGENMT_PHONEMIZER_SENTENCES} ${format})
      set_tests_properties(${name}_matches_host_${format} PROPERTIES TIMEOUT 900
                           LABELS "cortex-m;phonemizer")
    endforeach()
  endif()
endfunction()

# A board's whole firmware set, for the boards whose folders hold <board>.ld (product firmware),
# <board>_tests.ld (kernel tests) and board.c:
#   edgenmt_add_cortex_m_board(BOARD an386 QEMU_MACHINE mps2-an386 QEMU_CPU cortex-m4
#                              [SHIPPED] [PHONEMIZER])
# edgenmt_<board>_mcu (models/g2p-en-mcu) and edgenmt_<board>_transformer_mcu
# (models/g2p-en-transformer-mcu), each greedy and beam 5 against the host; SHIPPED adds
# edgenmt_<board> (the shipped g2p-en, 2.0 MB); PHONEMIZER adds edgenmt_<board>_phonemizer_mcu
# (ARPAbet); the kernel tests always; with EDGENMT_FLOAT_SCHEMES the hybrid int8 g2p-en-mcu,
# without it the firmware that must refuse that file.
function(edgenmt_add_cortex_m_board)
  cmake_parse_arguments(ARG "SHIPPED;PHONEMIZER" "BOARD;QEMU_MACHINE;QEMU_CPU" "" ${ARGN})
  set(dir ${CMAKE_CURRENT_SOURCE_DIR})
  set(common_args BOARD_SOURCES ${dir}/board.c QEMU_MACHINE ${ARG_QEMU_MACHINE}
                  QEMU_CPU ${ARG_QEMU_CPU})
  set(script ${dir}/${ARG_BOARD}.ld)
  set(models ${PROJECT_SOURCE_DIR}/build/models)
  if(ARG_SHIPPED)
    edgenmt_add_cortex_m_firmware(edgenmt_${ARG_BOARD} LINKER_SCRIPT ${script} ${common_args})
  endif()
  # The microcontroller model: its whole arena at beam 5 fits 64 KiB.
  edgenmt_add_cortex_m_firmware(edgenmt_${ARG_BOARD}_mcu LINKER_SCRIPT ${script} ${common_args}
    MODEL ${models}/g2p-en-mcu.int8-full.enmt ARENA_BYTES 65536)
  if(EXISTS ${PROJECT_SOURCE_DIR}/models/g2p-en-transformer-mcu/metrics.json)
    edgenmt_add_cortex_m_firmware(edgenmt_${ARG_BOARD}_transformer_mcu LINKER_SCRIPT ${script}
      ${common_args} MODEL ${models}/g2p-en-transformer-mcu.int8-full.enmt ARENA_BYTES 262144
      TRANSFORMER)
  endif()
  if(ARG_PHONEMIZER)
    edgenmt_add_cortex_m_phonemizer_firmware(edgenmt_${ARG_BOARD}_phonemizer_mcu
      LINKER_SCRIPT ${script} ${common_args} FILE ${models}/phonemizer-en-mcu.enmt
      ARENA_BYTES 131072)
  endif()
  if(EDGENMT_FLOAT_SCHEMES)
    # A preset with the float schemes (a core with an FPU): the hybrid int8 microcontroller
    # model (int8 weights, float32 activations) runs too.
    edgenmt_add_cortex_m_firmware(edgenmt_${ARG_BOARD}_mcu_int8_hybrid LINKER_SCRIPT ${script}
      ${common_args} MODEL ${models}/g2p-en-mcu.int8.enmt ARENA_BYTES 131072)
  else()
    edgenmt_add_cortex_m_scheme_refusal(edgenmt_${ARG_BOARD}_int8_hybrid LINKER_SCRIPT ${script}
                                        ${common_args})
  endif()
  edgenmt_add_cortex_m_kernel_tests(edgenmt_${ARG_BOARD}_kernel_tests
    LINKER_SCRIPT ${dir}/${ARG_BOARD}_tests.ld ${common_args} TESTS ${EDGENMT_CORTEX_M_KERNEL_TESTS})
endfunction()
