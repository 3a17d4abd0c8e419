// One table per BIF family; bifs/bif_registry.cpp concatenates them.
#pragma once

#include <span>

#include "bifs/bif.hpp"

namespace beam {

std::span<const BifSpec> arith_bifs();         // bifs/arith.cpp
std::span<const BifSpec> compare_bifs();       // bifs/compare.cpp
std::span<const BifSpec> math_bifs();          // bifs/math.cpp
std::span<const BifSpec> types_bifs();         // bifs/types.cpp
std::span<const BifSpec> tuples_bifs();        // bifs/tuples.cpp
std::span<const BifSpec> lists_bifs();         // bifs/lists.cpp
std::span<const BifSpec> atoms_bifs();         // bifs/atoms.cpp
std::span<const BifSpec> convert_int_bifs();   // bifs/convert_int.cpp
std::span<const BifSpec> convert_float_bifs(); // bifs/convert_float.cpp
std::span<const BifSpec> convert_bin_bifs();   // bifs/convert_bin.cpp
std::span<const BifSpec> binaries_bifs();      // bifs/binaries.cpp
std::span<const BifSpec> maps_bifs();          // bifs/maps.cpp
std::span<const BifSpec> misc_bifs();          // bifs/misc.cpp
std::span<const BifSpec> pdict_bifs();         // bifs/pdict.cpp
std::span<const BifSpec> hash_bifs();          // bifs/hash.cpp
std::span<const BifSpec> phash_bifs();         // bifs/phash.cpp
std::span<const BifSpec> map_iter_bifs();      // bifs/map_iter.cpp
std::span<const BifSpec> ext_iovec_bifs();     // bifs/ext_iovec.cpp
std::span<const BifSpec> binary_search_bifs(); // bifs/binary_search.cpp
std::span<const BifSpec> unicode_bifs();       // bifs/unicode.cpp
std::span<const BifSpec> string_prefix_bifs(); // bifs/string_prefix.cpp
std::span<const BifSpec> convert_ids_bifs();   // bifs/convert_ids.cpp
std::span<const BifSpec> md5_bifs();           // bifs/md5.cpp
std::span<const BifSpec> checksums_bifs();     // bifs/checksums.cpp
std::span<const BifSpec> calendar_bifs();      // bifs/calendar.cpp
std::span<const BifSpec> dtrace_tags_bifs();   // bifs/dtrace_tags.cpp
std::span<const BifSpec> iolist_iovec_bifs();  // bifs/iolist_iovec.cpp
std::span<const BifSpec> reductions_bifs();    // bifs/reductions.cpp
std::span<const BifSpec> debug_bifs();         // bifs/debug.cpp
std::span<const BifSpec> decode_packet_bifs(); // bifs/decode_packet.cpp
std::span<const BifSpec> atomics_bifs();       // bifs/atomics.cpp

// The families above that need only a process and term services (library beam_bifs).
inline constexpr std::span<const BifSpec> (*sequential_bif_families[])() = {
    arith_bifs,       compare_bifs,     math_bifs,         types_bifs,       tuples_bifs,
    lists_bifs,       atoms_bifs,       convert_int_bifs,  convert_float_bifs,
    convert_bin_bifs, binaries_bifs,    maps_bifs,         misc_bifs,        pdict_bifs,
    hash_bifs,        phash_bifs,       map_iter_bifs,     ext_iovec_bifs,   binary_search_bifs,
    unicode_bifs,     string_prefix_bifs, convert_ids_bifs,  md5_bifs,         checksums_bifs,   calendar_bifs,
    dtrace_tags_bifs, iolist_iovec_bifs, reductions_bifs,
    debug_bifs,       decode_packet_bifs, atomics_bifs,
};
// The natives of OTP's NIF module zlib (its stubs are replaced at load time). crypto's are
// OTP's own crypto.so, loaded by erlang:load_nif/2 (nif/).
std::span<const BifSpec> zlib_stream_bifs();   // bifs/zlib_stream.cpp
std::span<const BifSpec> zlib_deflate_bifs();  // bifs/zlib_deflate.cpp
std::span<const BifSpec> zlib_inflate_bifs();  // bifs/zlib_inflate.cpp
// The natives of OTP's preloaded file modules prim_file and prim_buffer (issue 9, files).
std::span<const BifSpec> prim_file_handle_bifs();  // bifs/prim_file_handle.cpp
std::span<const BifSpec> prim_file_io_bifs();      // bifs/prim_file_io.cpp
std::span<const BifSpec> prim_file_info_bifs();    // bifs/prim_file_info.cpp
std::span<const BifSpec> prim_file_fs_bifs();      // bifs/prim_file_fs.cpp
std::span<const BifSpec> prim_file_names_bifs();   // bifs/prim_file_names.cpp
std::span<const BifSpec> prim_buffer_bifs();       // bifs/prim_buffer.cpp
inline constexpr std::span<const BifSpec> (*nif_module_families[])() = {
    zlib_stream_bifs, zlib_deflate_bifs, zlib_inflate_bifs,
    prim_file_handle_bifs, prim_file_io_bifs, prim_file_info_bifs, prim_file_fs_bifs,
    prim_file_names_bifs, prim_buffer_bifs,
};

std::span<const BifSpec> system_bifs();        // bifs/system.cpp (needs the VM: beam_runtime)
std::span<const BifSpec> process_bifs();       // bifs/system_processes.cpp (beam_runtime)
std::span<const BifSpec> monitor_bifs();       // bifs/system_monitors.cpp (beam_runtime)
std::span<const BifSpec> distribution_bifs();  // dist/dist_bifs.cpp (beam_runtime)
std::span<const BifSpec> spawn_request_bifs(); // bifs/system_spawn_request.cpp (beam_runtime)
std::span<const BifSpec> time_bifs();          // bifs/system_time.cpp (beam_runtime)
std::span<const BifSpec> process_info_bifs();  // bifs/system_process_info.cpp (beam_runtime)
std::span<const BifSpec> code_bifs();          // bifs/system_code.cpp (beam_runtime)
std::span<const BifSpec> code_loading_bifs();  // bifs/system_code_loading.cpp (beam_runtime)
std::span<const BifSpec> internal_state_bifs(); // bifs/system_internal_state.cpp (beam_runtime)
std::span<const BifSpec> io_bifs();            // bifs/system_io.cpp (beam_runtime)
std::span<const BifSpec> host_bifs();          // bifs/system_host.cpp (beam_runtime)
std::span<const BifSpec> process_flag_bifs();  // bifs/system_process_flags.cpp (beam_runtime)
std::span<const BifSpec> persistent_term_bifs(); // bifs/system_persistent.cpp (beam_runtime)
std::span<const BifSpec> os_bifs();            // bifs/system_os.cpp (beam_runtime)
std::span<const BifSpec> namespace_bifs();     // bifs/system_namespaces.cpp (beam_runtime)
std::span<const BifSpec> operator_function_bifs(); // bifs/system_operator_functions.cpp (beam_runtime)
std::span<const BifSpec> memory_bifs();        // bifs/system_memory.cpp (beam_runtime)
std::span<const BifSpec> system_flag_bifs();   // bifs/system_flags.cpp (beam_runtime)
std::span<const BifSpec> suspend_bifs();       // bifs/system_suspend.cpp (beam_runtime)
std::span<const BifSpec> counters_bifs();      // bifs/system_counters.cpp (beam_runtime)
std::span<const BifSpec> nif_loading_bifs();   // nif/load_nif.cpp (beam_runtime)
std::span<const BifSpec> erts_internal_bifs(); // bifs/system_erts_internal.cpp (beam_runtime)
std::span<const BifSpec> ets_bifs();           // ets/ets_admin.cpp (beam_runtime): every ets native
std::span<const BifSpec> match_spec_bifs();    // bifs/system_match_spec.cpp (beam_runtime)
std::span<const BifSpec> port_bifs();          // bifs/system_ports.cpp (beam_runtime)
std::span<const BifSpec> erl_ddll_bifs();      // bifs/system_ddll.cpp (beam_runtime: loads C drivers)
std::span<const BifSpec> trace_bifs();         // bifs/system_trace.cpp (beam_runtime)
std::span<const BifSpec> seq_trace_bifs();     // bifs/system_seq_trace.cpp (beam_runtime)
std::span<const BifSpec> system_monitor_bifs(); // bifs/system_sysmon.cpp (beam_runtime)
std::span<const BifSpec> system_profile_bifs(); // bifs/system_profile.cpp (beam_runtime)
std::span<const BifSpec> trace_pattern_bifs(); // bifs/system_trace_pattern.cpp (beam_runtime)
std::span<const BifSpec> re_bifs();
// The natives of OTP's preloaded prim_socket (socket.erl's), io/socket/ (beam_runtime).
std::span<const BifSpec> prim_socket_open_bifs();    // io/socket/socket_open.cpp
std::span<const BifSpec> prim_socket_send_bifs();    // io/socket/socket_send.cpp
std::span<const BifSpec> prim_socket_recv_bifs();    // io/socket/socket_recv.cpp
std::span<const BifSpec> prim_socket_option_bifs();  // io/socket/socket_options.cpp
std::span<const BifSpec> prim_socket_info_bifs();    // io/socket/socket_info.cpp
std::span<const BifSpec> prim_socket_ioctl_bifs();   // io/socket/socket_ioctl.cpp
std::span<const BifSpec> prim_net_bifs();            // io/socket/prim_net.cpp (net's names)
inline constexpr std::span<const BifSpec> (*prim_socket_families[])() = {
    prim_socket_open_bifs, prim_socket_send_bifs, prim_socket_recv_bifs, prim_socket_option_bifs,
    prim_socket_info_bifs, prim_socket_ioctl_bifs, prim_net_bifs,
};            // re/re_natives.cpp (beam_runtime: traps into re.erl)

}  // namespace beam
