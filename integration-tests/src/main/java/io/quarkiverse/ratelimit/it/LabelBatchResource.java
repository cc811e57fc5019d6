package io.quarkiverse.ratelimit.it;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

/** Hands batches of labels to the scheduled job ({@link LabelBatchJob}) and tells how many it sent. */
@Path("/label-batches")
public class LabelBatchResource {

    @Inject
    LabelBatchJob job;

    @POST
    public Response add(@QueryParam("labels") int labels) {
        for (int i = 0; i < labels; i++) {
            job.add("batch label " + i);
        }
        return Response.accepted().build();
    }

    @GET
    @Path("/sent")
    public long sent() {
        return job.sent();
    }
}
