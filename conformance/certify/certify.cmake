# conformance/certify/: certification (ggufsafe certify) and SHA-256 manifests (ggufsafe hash,
# verify), built as gs_certify and linked into the CLI. Included from conformance/cli/, so
# relative sources below are the commands in conformance/cli/.
find_package(Threads REQUIRED)
set(GS_CERTIFY_DIR ${CMAKE_CURRENT_LIST_DIR})
add_library(gs_certify STATIC
  ${GS_CERTIFY_DIR}/cert_blocks.c
  ${GS_CERTIFY_DIR}/cert_codes.c
  ${GS_CERTIFY_DIR}/cert_compat.c
  ${GS_CERTIFY_DIR}/cert_coverage.c
  ${GS_CERTIFY_DIR}/cert_findings.c
  ${GS_CERTIFY_DIR}/cert_keys.c
  ${GS_CERTIFY_DIR}/cert_meta.c
  ${GS_CERTIFY_DIR}/cert_nameset.c
  ${GS_CERTIFY_DIR}/cert_payload.c
  ${GS_CERTIFY_DIR}/cert_reader.c
  ${GS_CERTIFY_DIR}/cert_render_json.c
  ${GS_CERTIFY_DIR}/cert_render_sarif.c
  ${GS_CERTIFY_DIR}/cert_render_text.c
  ${GS_CERTIFY_DIR}/cert_run.c
  ${GS_CERTIFY_DIR}/cert_scales.c
  ${GS_CERTIFY_DIR}/cert_split.c
  ${GS_CERTIFY_DIR}/cert_stats_kernel.c
  ${GS_CERTIFY_DIR}/cert_tokenizer.c
  ${GS_CERTIFY_DIR}/manifest_diff.c
  ${GS_CERTIFY_DIR}/manifest_doc.c
  ${GS_CERTIFY_DIR}/manifest_hash.c
  ${GS_CERTIFY_DIR}/manifest_parse.c
  ${GS_CERTIFY_DIR}/manifest_source.c
  ${GS_CERTIFY_DIR}/progress.c
  ${GS_CERTIFY_DIR}/scan_pool.c
)
# The renderers write through the CLI's JSON writer and report header (conformance/cli/),
# which the CLI (or a test) links in beside this library.
target_include_directories(gs_certify PUBLIC ${GS_CERTIFY_DIR} ${GS_CERTIFY_DIR}/../cli)
target_link_libraries(gs_certify PUBLIC ggufsafe_internal OpenSSL::Crypto Threads::Threads m)
gs_strict(gs_certify)

target_sources(ggufsafe_cli PRIVATE cmd_certify.c cmd_hash.c cmd_verify.c)
target_link_libraries(ggufsafe_cli PRIVATE gs_certify)

# gs_bench_model: the generated model for bench_certify.sh (not a test; never installed).
add_executable(gs_bench_model ${GS_CERTIFY_DIR}/bench_model.c)
gs_strict(gs_bench_model)
