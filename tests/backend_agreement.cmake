# Whole-model agreement of the optimized backends with the portable reference
# (scripts/backends_agree.sh, scripts/simd_level_agrees.sh). The reference's outputs for a model
# are decoded once, by a fixture test (scripts/reference_outputs.sh), and every agreement test of
# that model reads them: under QEMU the portable reference is the slowest decode of all, and each
# backend and SIMD level used to decode it again.

# Adds the fixture test reference_outputs_<fixture> (a COST starts it early: its tests wait for
# it): the first WORDS sources of DATA, greedy and beam 5, through CLI (under EMULATOR...) with
# --backend reference.
function(edgenmt_reference_outputs fixture cli model data words)
  add_test(NAME reference_outputs_${fixture}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/reference_outputs.sh ${cli} ${model} ${data}
                   ${words} ${CMAKE_CURRENT_BINARY_DIR}/reference_outputs/${fixture} ${ARGN})
  set_tests_properties(reference_outputs_${fixture} PROPERTIES
                       FIXTURES_SETUP reference_outputs_${fixture} TIMEOUT 900 COST 100)
endfunction()

# Makes agreement test `test` read the outputs of fixture `fixture` (and run after it).
function(edgenmt_agreement_uses_reference test fixture)
  set_tests_properties(${test} PROPERTIES
    FIXTURES_REQUIRED reference_outputs_${fixture}
    ENVIRONMENT EDGENMT_REFERENCE_OUTPUTS=${CMAKE_CURRENT_BINARY_DIR}/reference_outputs/${fixture})
endfunction()
