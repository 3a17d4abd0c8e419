// Operation numbers of the control messages between connected nodes (erl_dist_protocol,
// "Protocol between Connected Nodes"): the first element of every control tuple.
#pragma once

namespace beam::dist::op {

inline constexpr int LINK = 1;                     // {1, FromPid, ToPid}
inline constexpr int SEND = 2;                     // {2, Unused, ToPid} + Message
inline constexpr int EXIT = 3;                     // {3, FromPid, ToPid, Reason}
inline constexpr int UNLINK = 4;                   // {4, FromPid, ToPid} (before UNLINK_ID)
inline constexpr int REG_SEND = 6;                 // {6, FromPid, Unused, ToName} + Message
inline constexpr int GROUP_LEADER = 7;             // {7, FromPid, ToPid}
inline constexpr int EXIT2 = 8;                    // {8, FromPid, ToPid, Reason}
inline constexpr int SEND_TT = 12;                 // {12, Unused, ToPid, Token} + Message
inline constexpr int EXIT_TT = 13;                 // {13, FromPid, ToPid, Token, Reason}
inline constexpr int REG_SEND_TT = 16;             // {16, FromPid, Unused, ToName, Token} + Message
inline constexpr int EXIT2_TT = 18;                // {18, FromPid, ToPid, Token, Reason}
inline constexpr int MONITOR_P = 19;               // {19, FromPid, ToProc, Ref}
inline constexpr int DEMONITOR_P = 20;             // {20, FromPid, ToProc, Ref}
inline constexpr int MONITOR_P_EXIT = 21;          // {21, FromProc, ToPid, Ref, Reason}
inline constexpr int SEND_SENDER = 22;             // {22, FromPid, ToPid} + Message
inline constexpr int SEND_SENDER_TT = 23;          // {23, FromPid, ToPid, Token} + Message
inline constexpr int PAYLOAD_EXIT = 24;            // {24, FromPid, ToPid} + Reason
inline constexpr int PAYLOAD_EXIT_TT = 25;         // {25, FromPid, ToPid, Token} + Reason
inline constexpr int PAYLOAD_EXIT2 = 26;           // {26, FromPid, ToPid} + Reason
inline constexpr int PAYLOAD_EXIT2_TT = 27;        // {27, FromPid, ToPid, Token} + Reason
inline constexpr int PAYLOAD_MONITOR_P_EXIT = 28;  // {28, FromProc, ToPid, Ref} + Reason
inline constexpr int SPAWN_REQUEST = 29;           // {29, ReqId, From, GroupLeader, {M, F, Arity}, Opts} + Args
inline constexpr int SPAWN_REQUEST_TT = 30;        // ... , Token} + Args
inline constexpr int SPAWN_REPLY = 31;             // {31, ReqId, To, Flags, Result}
inline constexpr int SPAWN_REPLY_TT = 32;          // {32, ReqId, To, Flags, Result, Token}
inline constexpr int ALIAS_SEND = 33;              // {33, FromPid, Alias} + Message
inline constexpr int ALIAS_SEND_TT = 34;           // {34, FromPid, Alias, Token} + Message
inline constexpr int UNLINK_ID = 35;               // {35, Id, FromPid, ToPid}
inline constexpr int UNLINK_ID_ACK = 36;           // {36, Id, FromPid, ToPid}

// SPAWN_REPLY's Flags: what the new process already set up with the requester.
inline constexpr int SPAWN_FLAG_LINK = 1;
inline constexpr int SPAWN_FLAG_MONITOR = 2;

}  // namespace beam::dist::op
