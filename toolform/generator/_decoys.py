"""Extra decoy tools beyond the 93, for catalogues of up to a few hundred tools.

A long-catalogue sweep (1, 2, 4 … 256 tools) needs more distractors than the generated set has.
The extras are CRUD tools of further services (a fleet manager, a library, a DNS panel …), built
from the table below in a fixed order: ``list_<things>``, ``get_<thing>``, ``create_<thing>``,
``update_<thing>``, ``delete_<thing>`` for each resource. They read like real services, are never
a request's target, and carry executors like every generated tool.
"""

from __future__ import annotations

from functools import lru_cache

from ..ir import ToolIR
from ._spec import Effect, enum, integer, param, string

# service, resource (singular id, label), its two descriptive fields (name, description)
_RESOURCES: tuple[tuple[str, str, str, tuple[tuple[str, str], tuple[str, str]]], ...] = (
    ("FleetManager", "vehicle", "vehicle",
     (("plate", "Licence plate."), ("model", "Make and model."))),
    ("FleetManager", "driver", "driver",
     (("name", "Full name."), ("license_number", "Licence number."))),
    ("LibraryDesk", "book_loan", "book loan",
     (("isbn", "ISBN of the book."), ("member_card", "Member card number."))),
    ("LibraryDesk", "library_member", "library member",
     (("name", "Full name."), ("card_number", "Card number."))),
    ("ParkSmart", "parking_permit", "parking permit",
     (("plate", "Licence plate."), ("zone", "Parking zone."))),
    ("ParkSmart", "parking_spot", "parking spot",
     (("level", "Garage level."), ("spot_number", "Spot number."))),
    ("InsureCo", "policy", "insurance policy",
     (("holder", "Policy holder."), ("coverage", "Coverage type."))),
    ("InsureCo", "claim", "insurance claim",
     (("policy_number", "Policy number."), ("summary", "What happened."))),
    ("CampusHub", "course", "course",
     (("code", "Course code."), ("title", "Course title."))),
    ("CampusHub", "enrollment", "enrollment",
     (("student_id", "Student id."), ("course_code", "Course code."))),
    ("GymFlow", "class_booking", "gym class booking",
     (("class_name", "Class name."), ("member_id", "Member id."))),
    ("GymFlow", "trainer", "trainer",
     (("name", "Full name."), ("specialty", "Specialty."))),
    ("LabTrack", "sample", "lab sample",
     (("sample_code", "Sample code."), ("sample_type", "Sample type."))),
    ("LabTrack", "experiment", "experiment",
     (("name", "Experiment name."), ("protocol", "Protocol id."))),
    ("DNSPanel", "dns_record", "DNS record",
     (("hostname", "Fully qualified name."), ("value", "Record value."))),
    ("DNSPanel", "domain_name", "domain name",
     (("domain", "Domain name."), ("registrar", "Registrar."))),
    ("BuildBot", "build", "CI build",
     (("repository", "Repository."), ("branch", "Branch."))),
    ("BuildBot", "deployment", "deployment",
     (("service", "Service name."), ("version", "Version tag."))),
    ("CampaignKit", "campaign", "marketing campaign",
     (("name", "Campaign name."), ("channel", "Channel."))),
    ("CampaignKit", "coupon", "coupon",
     (("code", "Coupon code."), ("discount", "Discount text."))),
    ("PetVet", "pet", "pet",
     (("name", "Pet's name."), ("species", "Species."))),
    ("PetVet", "vaccination", "vaccination",
     (("pet_ref", "Pet id."), ("vaccine", "Vaccine name."))),
    ("HomeFinder", "listing", "property listing",
     (("address", "Property address."), ("asking_price", "Asking price text."))),
    ("HomeFinder", "viewing", "property viewing",
     (("listing_ref", "Listing id."), ("visitor", "Visitor name."))),
    ("LegalDocs", "contract", "contract",
     (("title", "Contract title."), ("counterparty", "Counterparty."))),
    ("LegalDocs", "signature_request", "signature request",
     (("document_ref", "Document id."), ("signer", "Signer email."))),
    ("VenueBook", "venue", "venue",
     (("name", "Venue name."), ("city", "City."))),
    ("VenueBook", "ticket_type", "ticket type",
     (("name", "Ticket type name."), ("price_text", "Price."))),
    ("KnowledgeBase", "kb_article", "knowledge-base article",
     (("title", "Title."), ("body", "Article body."))),
    ("KnowledgeBase", "kb_category", "knowledge-base category",
     (("name", "Category name."), ("parent", "Parent category."))),
    ("SubsCloud", "subscription", "subscription",
     (("plan", "Plan name."), ("customer_ref", "Customer id."))),
    ("SubsCloud", "credit_note", "credit note",
     (("invoice_ref", "Invoice number."), ("amount_text", "Amount."))),
    ("KeyVault", "api_key", "API key",
     (("label", "Key label."), ("scope", "Scope."))),
    ("KeyVault", "access_grant", "access grant",
     (("principal", "User or group."), ("resource", "Resource."))),
    ("SurveyPal", "survey", "survey",
     (("title", "Survey title."), ("audience", "Audience."))),
    ("SurveyPal", "survey_response", "survey response",
     (("survey_ref", "Survey id."), ("respondent", "Respondent."))),
    ("PodStudio", "episode", "podcast episode",
     (("title", "Episode title."), ("show", "Show name."))),
    ("PodStudio", "podcast_show", "podcast show",
     (("name", "Show name."), ("host", "Host."))),
    ("VisaDesk", "visa_application", "visa application",
     (("country", "Destination country."), ("passport_number", "Passport number."))),
    ("CarRent", "car_rental", "car rental",
     (("pickup_city", "Pick-up city."), ("pickup_date", "Pick-up day."))),
    ("GridMeter", "meter_reading", "meter reading",
     (("meter_ref", "Meter id."), ("reading_kwh", "Reading in kWh."))),
    ("FarmLog", "field_plot", "field plot",
     (("name", "Plot name."), ("crop", "Crop."))),
    ("HireRight", "job_posting", "job posting",
     (("title", "Job title."), ("location", "Location."))),
    ("HireRight", "candidate", "candidate",
     (("name", "Full name."), ("email", "Email."))),
)

_VERBS = ("list", "get", "create", "update", "delete")


def _plural(word: str) -> str:
    if word.endswith(("s", "x", "sh", "ch")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _build(service: str, rid: str, label: str, fields: tuple[tuple[str, str], ...],
           verb: str) -> tuple[ToolIR, Effect]:
    key = f"{rid}_id"
    table = _plural(rid)
    labels = _plural(label)
    if verb == "list":
        params = (param("limit", integer(1, 100), "Most rows to return.", default=20),)
        return (ToolIR(f"list_{table}", f"List {labels} in {service}.", params),
                Effect("read", table))
    if verb == "get":
        return (ToolIR(f"get_{rid}", f"Get one {label} from {service} by id.",
                       (param(key, string(), f"The {label}'s id."),)),
                Effect("read", table, (key,)))
    if verb == "create":
        params = tuple(param(name, string(), desc) for name, desc in fields)
        return (ToolIR(f"create_{rid}", f"Create a {label} in {service}.", params),
                Effect("create", table))
    if verb == "update":
        params = (param(key, string(), f"The {label}'s id."),
                  param("status", enum("active", "paused", "archived"), "New status."))
        return (ToolIR(f"update_{rid}", f"Change the status of a {label} in {service}.",
                       params), Effect("update", table, (key,)))
    return (ToolIR(f"delete_{rid}", f"Delete a {label} from {service}.",
                   (param(key, string(), f"The {label}'s id."),)),
            Effect("delete", table, (key,)))


@lru_cache(maxsize=1)
def extra_decoys() -> tuple[tuple[ToolIR, Effect], ...]:
    """Every extra decoy tool with its effect, in their fixed order (resource by resource)."""
    return tuple(_build(service, rid, label, fields, verb)
                 for service, rid, label, fields in _RESOURCES for verb in _VERBS)
