using System;
using Microsoft.EntityFrameworkCore.Migrations;

#nullable disable

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    public partial class AnalysisConsumer : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.AddColumn<int>(
                name: "attempts",
                table: "analysis_queue",
                type: "integer",
                nullable: false,
                defaultValue: 0);

            migrationBuilder.AddColumn<string>(
                name: "error",
                table: "analysis_queue",
                type: "character varying(2000)",
                maxLength: 2000,
                nullable: true);

            migrationBuilder.AddColumn<DateTimeOffset>(
                name: "parked_at",
                table: "analysis_queue",
                type: "timestamp with time zone",
                nullable: true);

            migrationBuilder.AddColumn<string>(
                name: "trace_parent",
                table: "analysis_queue",
                type: "character varying(100)",
                maxLength: 100,
                nullable: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropColumn(
                name: "attempts",
                table: "analysis_queue");

            migrationBuilder.DropColumn(
                name: "error",
                table: "analysis_queue");

            migrationBuilder.DropColumn(
                name: "parked_at",
                table: "analysis_queue");

            migrationBuilder.DropColumn(
                name: "trace_parent",
                table: "analysis_queue");
        }
    }
}
