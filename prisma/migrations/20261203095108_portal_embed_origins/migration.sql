-- AlterTable
ALTER TABLE "environment" ADD COLUMN     "portal_embed_origins" TEXT[] DEFAULT ARRAY[]::TEXT[];
