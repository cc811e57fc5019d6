package io.quarkiverse.ratelimit.it;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** The card network said no: answered {@code 402 Payment Required}. */
public class PaymentDeclinedException extends RuntimeException {

    public PaymentDeclinedException() {
        super("payment declined", null, false, false);
    }

    @Provider
    public static class Mapper implements ExceptionMapper<PaymentDeclinedException> {

        @Override
        public Response toResponse(PaymentDeclinedException exception) {
            return Response.status(402).entity(exception.getMessage()).build();
        }
    }
}
