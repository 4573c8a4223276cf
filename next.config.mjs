/** @type {import('next').NextConfig} */
const nextConfig = {
  // npm test builds into its own folder so it never disturbs a running `npm run up`.
  distDir: process.env.HERALD_NEXT_DIST_DIR || ".next",
  // Server-only packages shared with the worker through lib/: load them from node_modules as is.
  serverExternalPackages: ["bullmq", "ioredis", "pg", "@prisma/adapter-pg", "prom-client", "undici", "nodemailer"],
  poweredByHeader: false,
  reactStrictMode: true,
  // Clients that do not read the page's <link rel="icon"> ask for /favicon.ico: the same SVG.
  async rewrites() {
    return [{ source: "/favicon.ico", destination: "/favicon.svg" }];
  },
};

export default nextConfig;
