"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.NotificationIdParam = exports.PortfolioIdParam = exports.UploadReportDto = exports.PublishNotificationDto = exports.NotificationContentDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const class_transformer_1 = require("class-transformer");
const class_validator_1 = require("class-validator");
const notifications_1 = require("../../shared/notifications");
const text = (field) => [
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsString)({ message: `content.${field} must be text.` }),
    (0, class_validator_1.MaxLength)(notifications_1.CONTENT_FIELD_LIMITS[field], { message: `content.${field} must be at most ${notifications_1.CONTENT_FIELD_LIMITS[field]} characters.` }),
];
function Text(field) {
    return (target, key) => text(field).forEach((d) => d(target, key));
}
/** The content fields of spec 001 §3; anything else is refused. */
class NotificationContentDto {
    status;
    message;
    subCategory;
    portfolioName;
    portfolioCode;
    startDate;
    endDate;
    summary;
    detail;
    fileName;
    downloadLink;
}
exports.NotificationContentDto = NotificationContentDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    Text('status'),
    __metadata("design:type", String)
], NotificationContentDto.prototype, "status", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    Text('message'),
    __metadata("design:type", String)
], NotificationContentDto.prototype, "message", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    Text('subCategory'),
    __metadata("design:type", String)
], NotificationContentDto.prototype, "subCategory", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    Text('portfolioName'),
    __metadata("design:type", String)
], NotificationContentDto.prototype, "portfolioName", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    Text('portfolioCode'),
    __metadata("design:type", String)
], NotificationContentDto.prototype, "portfolioCode", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    Text('startDate'),
    __metadata("design:type", String)
], NotificationContentDto.prototype, "startDate", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    Text('endDate'),
    __metadata("design:type", String)
], NotificationContentDto.prototype, "endDate", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    Text('summary'),
    __metadata("design:type", String)
], NotificationContentDto.prototype, "summary", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    Text('detail'),
    __metadata("design:type", String)
], NotificationContentDto.prototype, "detail", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    Text('fileName'),
    __metadata("design:type", String)
], NotificationContentDto.prototype, "fileName", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ description: 'An https URL, or /files/reports/<organisationId>/<name> of a report uploaded with POST api/notifications/reports' }),
    Text('downloadLink'),
    __metadata("design:type", String)
], NotificationContentDto.prototype, "downloadLink", void 0);
/** POST api/notifications (X-Api-Key, CONTRACT 3): one user or a whole organisation. */
class PublishNotificationDto {
    userId;
    organisationId;
    type;
    content;
}
exports.PublishNotificationDto = PublishNotificationDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsInt)({ message: 'userId must be a whole number.' }),
    (0, class_validator_1.Min)(1, { message: 'userId must be a whole number.' }),
    __metadata("design:type", Number)
], PublishNotificationDto.prototype, "userId", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)(),
    (0, class_validator_1.IsOptional)(),
    (0, class_validator_1.IsInt)({ message: 'organisationId must be a whole number.' }),
    (0, class_validator_1.Min)(1, { message: 'organisationId must be a whole number.' }),
    __metadata("design:type", Number)
], PublishNotificationDto.prototype, "organisationId", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: notifications_1.NOTIFICATION_TYPES }),
    (0, class_validator_1.IsIn)(notifications_1.NOTIFICATION_TYPES, { message: `type must be one of ${notifications_1.NOTIFICATION_TYPES.join(', ')}.` }),
    __metadata("design:type", String)
], PublishNotificationDto.prototype, "type", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ type: NotificationContentDto }),
    (0, class_validator_1.IsObject)({ message: 'content must be an object.' }),
    (0, class_validator_1.ValidateNested)(),
    (0, class_transformer_1.Type)(() => NotificationContentDto),
    __metadata("design:type", NotificationContentDto)
], PublishNotificationDto.prototype, "content", void 0);
/** POST api/notifications/reports (X-Api-Key), multipart: the report file and its organisation. */
class UploadReportDto {
    organisationId;
}
exports.UploadReportDto = UploadReportDto;
__decorate([
    (0, swagger_1.ApiProperty)(),
    (0, class_transformer_1.Type)(() => Number),
    (0, class_validator_1.IsInt)({ message: 'organisationId must be a whole number.' }),
    (0, class_validator_1.Min)(1, { message: 'organisationId must be a whole number.' }),
    __metadata("design:type", Number)
], UploadReportDto.prototype, "organisationId", void 0);
/** GET api/processedData/processLogUrl/{portfolioId}: the portfolio's id or code. */
class PortfolioIdParam {
    portfolioId;
}
exports.PortfolioIdParam = PortfolioIdParam;
__decorate([
    (0, class_validator_1.IsString)(),
    (0, class_validator_1.Matches)(/^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$/, { message: 'portfolioId must be 1 to 50 letters, digits, dashes or underscores.' }),
    __metadata("design:type", String)
], PortfolioIdParam.prototype, "portfolioId", void 0);
class NotificationIdParam {
    id;
}
exports.NotificationIdParam = NotificationIdParam;
__decorate([
    (0, class_transformer_1.Type)(() => Number),
    (0, class_validator_1.IsInt)({ message: 'The notification id must be a whole number.' }),
    (0, class_validator_1.Min)(1, { message: 'The notification id must be a whole number.' }),
    __metadata("design:type", Number)
], NotificationIdParam.prototype, "id", void 0);
//# sourceMappingURL=notification.dto.js.map