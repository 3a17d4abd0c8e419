/* A C port driver for tests/conformance/nif_c_driver.erl, loaded by erl_ddll:try_load/3 on erl
 * and on beamvm: it echoes what the port is sent (driver_output), answers port_control/3 with
 * the operation number and the bytes reversed, keeps the start command for control op 0, and
 * counts its starts and stops (control op 1 answers them), so the test sees each callback. */
#include <erl_driver.h>
#include <stdio.h>
#include <string.h>

static int starts, stops;

typedef struct {
    ErlDrvPort port;
    char command[64];
} EchoPort;

static EchoPort ports[16];

static ErlDrvData echo_start(ErlDrvPort port, char* command) {
    for (int i = 0; i < 16; ++i) {
        if (ports[i].port == NULL) {
            ports[i].port = port;
            snprintf(ports[i].command, sizeof ports[i].command, "%s", command);
            ++starts;
            return (ErlDrvData)&ports[i];
        }
    }
    return ERL_DRV_ERROR_GENERAL;
}

static void echo_stop(ErlDrvData d) {
    ((EchoPort*)d)->port = NULL;
    ++stops;
}

static void echo_output(ErlDrvData d, char* buf, ErlDrvSizeT len) {
    driver_output(((EchoPort*)d)->port, buf, len);
}

static ErlDrvSSizeT echo_control(ErlDrvData d, unsigned int op, char* buf, ErlDrvSizeT len, char** rbuf,
                                 ErlDrvSizeT rlen) {
    EchoPort* e = (EchoPort*)d;
    char* out = *rbuf;
    if (op == 0) {
        size_t n = strlen(e->command);
        if (n > rlen) n = rlen;
        memcpy(out, e->command, n);
        return (ErlDrvSSizeT)n;
    }
    if (op == 1) return snprintf(out, rlen, "%d %d", starts, stops);
    if (len + 1 > rlen) return -1;
    out[0] = (char)op;
    for (ErlDrvSizeT i = 0; i < len; ++i) out[1 + i] = buf[len - 1 - i];
    return (ErlDrvSSizeT)(len + 1);
}

static ErlDrvEntry echo_entry = {
    NULL, echo_start, echo_stop, echo_output, NULL, NULL, "driver_echo", NULL, NULL, echo_control,
    NULL, NULL, NULL, NULL, NULL, NULL, ERL_DRV_EXTENDED_MARKER, ERL_DRV_EXTENDED_MAJOR_VERSION,
    ERL_DRV_EXTENDED_MINOR_VERSION, 0, NULL, NULL, NULL, NULL,
};

DRIVER_INIT(driver_echo) { return &echo_entry; }
