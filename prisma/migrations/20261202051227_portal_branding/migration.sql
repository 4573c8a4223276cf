-- AlterTable
ALTER TABLE "environment" ADD COLUMN     "portal_branding" JSONB;
