/**
 * For a class-validator DTO: `class CreateHelpDto implements RequestDto<CreateHelpDto, CreateHelpRequest>`. It is the
 * request type when the class declares exactly its fields, optional ones included (a plain `implements` lets an
 * optional field be missing or renamed on either side); otherwise an object naming the fields in one only, which the
 * class fails to implement: the typecheck says which. A type, no code.
 */
export type RequestDto<Dto, Request> = [Exclude<keyof Dto, keyof Request>, Exclude<keyof Request, keyof Dto>] extends [never, never]
  ? Request
  : {
      readonly 'fields in only one of the DTO and its request type': Exclude<keyof Dto, keyof Request> | Exclude<keyof Request, keyof Dto>;
    };
