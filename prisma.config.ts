import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg-migrate";

// The CLI runs Prisma's schema engine as WebAssembly through this adapter: the native engine
// is a download this machine cannot make. The aliased 7.x adapter is used only here, because
// the 6.19 one cannot read the `name` column type the engine queries (prisma/orm#27403).
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  adapter() {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL must be set to run the Prisma CLI");
    return Promise.resolve(new PrismaPg({ connectionString }));
  },
});
