# Cross builds (make test-arm): the target's CLI under QEMU against the host build's CLI and
# against the target's own portable reference. Included by tests/CMakeLists.txt when
# CMAKE_CROSSCOMPILING, the CLI is built and EDGENMT_HOST_BUILD_DIR names the host build.
# Long QEMU runs carry a COST (their measured seconds under qemu-arm) so that ctest -j starts
# them first rather than leaving one of them running alone at the end.
set(host_models ${EDGENMT_HOST_BUILD_DIR}/models)
set(test_split ${PROJECT_SOURCE_DIR}/data/g2p/test.tsv)

# The target's CLI decodes the first distinct test words like the host build's CLI, greedy and
# beam 5, each on its default backend. int8-full: byte-identical (integer-only arithmetic), 500
# words. int8 hybrid and float32: >= 99.5 % identical outputs, the scores of identical outputs
# within 0.1 nats (int8) and 1e-4 (float32): their activations are float, each level's vector
# sigmoid/tanh/log-softmax rounds differently in the last bits (ARMv7 NEON also flushes
# subnormals), and a hybrid activation requantized per row can then move by one int8 step
# (measured: 0.052 nats; one beam-5 near-tie of 500 on armv7). float32 on 100 words: it is the
# slowest scheme under QEMU (2 words/s at beam 5, 5 minutes for 500) and measured 500 of 500
# identical within 1.2e-5 nats on both targets; the host's float32 tests cover the whole split.
foreach(check "int8-full|500|100|0|110" "int8|500|99.5|0.1|110" "f32|100|99.5|1e-4|70")
  string(REPLACE "|" ";" check "${check}")
  list(GET check 0 scheme)
  list(GET check 1 words)
  list(GET check 2 min_percent)
  list(GET check 3 score_tol)
  list(GET check 4 cost)
  add_test(NAME target_matches_host_${scheme}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/target_matches_host.sh
                   ${EDGENMT_HOST_BUILD_DIR}/edgenmt ${host_models}/g2p-en.${scheme}.enmt
                   ${test_split} ${words} ${min_percent} ${score_tol}
                   $<TARGET_FILE:edgenmt> ${CMAKE_CROSSCOMPILING_EMULATOR})
  set_tests_properties(target_matches_host_${scheme} PROPERTIES TIMEOUT 1200 COST ${cost})
endforeach()
# The int8-full Transformer, integer-only too: byte-identical to the host (issue 25).
if(EXISTS ${PROJECT_SOURCE_DIR}/models/g2p-en-transformer/metrics.json)
  add_test(NAME target_matches_host_transformer_int8-full
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/target_matches_host.sh
                   ${EDGENMT_HOST_BUILD_DIR}/edgenmt ${host_models}/g2p-en-transformer.int8-full.enmt
                   ${test_split} 500 100 0 $<TARGET_FILE:edgenmt> ${CMAKE_CROSSCOMPILING_EMULATOR})
  set_tests_properties(target_matches_host_transformer_int8-full PROPERTIES TIMEOUT 1200 COST 105)
endif()

# The target's SIMD levels decode like its portable reference (int8-full identically), each end
# to end on the first 100 test words (float32 on 40: under QEMU its vector float arithmetic
# decodes 3-4 times slower than int8, and both targets passed on 100): aarch64 plain NEON
# on QEMU's -cpu cortex-a72 and the dot product on its default CPU; armv7 NEON. A level the
# emulated CPU lacks shows as skipped. The reference's outputs come from one fixture per scheme
# (backend_agreement.cmake): the reference binary is the same under either emulated CPU.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(levels "neon|-cpu|cortex-a72" "neon-dotprod|")
else()
  set(levels "neon|")
endif()
foreach(scheme f32 int8 int8-full)
  set(model ${host_models}/g2p-en.${scheme}.enmt)
  if(scheme STREQUAL "int8-full")
    set(min_percent 100)
  else()
    set(min_percent 98)
  endif()
  set(words 100)
  if(scheme STREQUAL "f32")
    set(words 40)
  endif()
  set(fixture g2p-en.${scheme})
  edgenmt_reference_outputs(${fixture} $<TARGET_FILE:edgenmt> ${model} ${test_split} ${words}
                            ${CMAKE_CROSSCOMPILING_EMULATOR})
  foreach(entry ${levels})
    string(REPLACE "|" ";" entry "${entry}")
    list(POP_FRONT entry level)
    add_test(NAME simd_${level}_agrees_with_reference_${scheme}
             COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/simd_level_agrees.sh ${level}
                     $<TARGET_FILE:edgenmt> ${model} ${test_split} ${words} ${min_percent}
                     ${CMAKE_CROSSCOMPILING_EMULATOR} ${entry})
    set_tests_properties(simd_${level}_agrees_with_reference_${scheme} PROPERTIES
                         TIMEOUT 900 SKIP_RETURN_CODE 77)
    edgenmt_agreement_uses_reference(simd_${level}_agrees_with_reference_${scheme} ${fixture})
  endforeach()
  # XNNPACK from the target sysroot, float32 only: `xnnpack`, and `auto` (the best SIMD level
  # with XNNPACK's packed products for several rows). For int8 and int8-full, auto's table is
  # the best level's (XNNPACK packs only float32 weights: the same arena, nothing packed), which
  # the simd test of that level runs already.
  if(EDGENMT_WITH_XNNPACK AND scheme STREQUAL "f32")
    foreach(backend auto xnnpack)
      add_test(NAME ${backend}_agrees_with_reference_${scheme}
               COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/backends_agree.sh $<TARGET_FILE:edgenmt>
                       ${model} ${test_split} ${words} ${backend} ${min_percent}
                       ${CMAKE_CROSSCOMPILING_EMULATOR})
      set_tests_properties(${backend}_agrees_with_reference_${scheme} PROPERTIES TIMEOUT 900)
      edgenmt_agreement_uses_reference(${backend}_agrees_with_reference_${scheme} ${fixture})
    endforeach()
  endif()
endforeach()
