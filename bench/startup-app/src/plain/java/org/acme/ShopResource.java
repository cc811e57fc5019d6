package org.acme;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import io.smallrye.mutiny.Uni;

/** The four endpoints of src/limits, without their limits. */
@Path("/shop")
public class ShopResource {

    @GET
    @Path("products")
    public String products() {
        return "products";
    }

    @GET
    @Path("prices")
    public Uni<String> prices() {
        return Uni.createFrom().item("prices");
    }

    @POST
    @Path("orders")
    public String order() {
        return "ordered";
    }

    @POST
    @Path("exports")
    public String export() {
        return "exporting";
    }
}
