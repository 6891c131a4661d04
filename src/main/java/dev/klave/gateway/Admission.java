package dev.klave.gateway;

import static java.util.Objects.requireNonNull;

import dev.klave.messages.Refusal;

/** What admission decided of a call; either way its audit row is written. */
public sealed interface Admission {
    /** The call may go to its cluster, through a transport ({@link CallChain}). */
    record Admitted(Carried call) implements Admission {
        public Admitted {
            requireNonNull(call, "call is null");
        }

        public Caller caller() {
            return call.caller();
        }
    }

    /** The call is refused with the specification's answer; its row is complete already. */
    record Refused(Refusal refusal) implements Admission {
        public Refused {
            requireNonNull(refusal, "refusal is null");
        }
    }
}
