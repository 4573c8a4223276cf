-- AlterTable
ALTER TABLE "portal_token" ADD COLUMN     "capabilities" TEXT[] DEFAULT ARRAY[]::TEXT[];
