# The SIMD backend's instruction-set folders under runtime/src/kernels/ (issue 60 §3): the one
# list of them. Each entry names the folder, the level it provides (simd_level.h), when the target
# has it (a C preprocessor condition on the compiler's own predefined macros, with the toolchain's
# flags), and the flags its files are compiled with (space-separated; "none"). A folder whose
# condition fails is left out of the build; one that is kept defines EDGENMT_SIMD_<LEVEL>=1 for
# the shared drivers (kernels/simd/: simd_level.cc, simd_kernel_table.cc), which bind only the
# levels so defined.
#
# Entries: folder, level, condition, flags.
set(EDGENMT_KERNEL_INSTRUCTION_SETS
  "x86/avx2" AVX2_FMA "defined(__x86_64__)" "-mavx2 -mfma"
  "x86/avx512_vnni" AVX512_VNNI "defined(__x86_64__)"
      "-mavx2 -mfma -mavx512f -mavx512bw -mavx512vnni"
  "arm_neon" NEON "defined(__ARM_NEON)" "none"
  "arm_neon/dotprod" NEON_DOTPROD "defined(__aarch64__)" "-march=armv8.2-a+dotprod"
  "arm_m/helium" HELIUM "defined(__ARM_FEATURE_MVE)" "none"
  # An M55 has the DSP extension too; Helium does all it would, so its build leaves DSP out.
  "arm_m/dsp" DSP
      "defined(__ARM_FEATURE_DSP) && !defined(__ARM_FEATURE_MVE) && !defined(__ARM_NEON)" "none"
)

include(CheckCXXSourceCompiles)

# edgenmt_kernel_instruction_sets(<sources-var> <definitions-var> <levels-var>): drops from
# <sources-var> the files of every folder the target lacks, sets each kept folder's flags on its
# files, and returns the compile definitions and the level names kept. The sub-folder rule is
# "most specific folder wins": arm_neon/dotprod/ files are not arm_neon/ files.
function(edgenmt_kernel_instruction_sets sources_var definitions_var levels_var)
  set(kernels_dir ${CMAKE_CURRENT_SOURCE_DIR}/src/kernels)
  set(sources ${${sources_var}})
  set(definitions "")
  set(levels "")
  set(entries ${EDGENMT_KERNEL_INSTRUCTION_SETS})
  list(LENGTH entries count)
  math(EXPR last "${count} - 1")
  foreach(i RANGE 0 ${last} 4)
    math(EXPR j "${i} + 1")
    math(EXPR k "${i} + 2")
    math(EXPR l "${i} + 3")
    list(GET entries ${i} folder)
    list(GET entries ${j} level)
    list(GET entries ${k} condition)
    list(GET entries ${l} flags)
    if(flags STREQUAL "none")
      set(flags "")
    endif()
    separate_arguments(flags UNIX_COMMAND "${flags}")
    # The folder's own files: not those of a deeper folder that has its own entry.
    set(folder_sources ${sources})
    list(FILTER folder_sources INCLUDE REGEX "^${kernels_dir}/${folder}/[^/]+$")
    check_cxx_source_compiles("#if !(${condition})\n#error no\n#endif\nint main() { return 0; }"
                              EDGENMT_TARGET_HAS_${level})
    if(EDGENMT_TARGET_HAS_${level})
      list(APPEND definitions EDGENMT_SIMD_${level}=1)
      list(APPEND levels ${level})
      if(flags OR CMAKE_SYSTEM_NAME STREQUAL "Generic")
        # Cortex-M presets optimise for size, but a word's instructions go to these kernels.
        set(options ${flags})
        if(CMAKE_SYSTEM_NAME STREQUAL "Generic")
          list(APPEND options -O2)
        endif()
        set_source_files_properties(${folder_sources} PROPERTIES COMPILE_OPTIONS "${options}")
      endif()
    else()
      list(REMOVE_ITEM sources ${folder_sources})
    endif()
  endforeach()
  set(${sources_var} ${sources} PARENT_SCOPE)
  set(${definitions_var} ${definitions} PARENT_SCOPE)
  set(${levels_var} ${levels} PARENT_SCOPE)
endfunction()
